// Countdown: add a date that matters; see the days left, the soonest first.
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today } from "./i18n.js";

// Whole days from one calendar day to another (both YYYY-MM-DD, no time zone games).
function daysBetween(from, to) {
  const [a, b] = [from, to].map((d) => Date.UTC(...d.split("-").map((n, i) => Number(n) - (i === 1 ? 1 : 0))));
  return Math.round((b - a) / 86400000);
}

// The date the idea or a change named is an event already (the server adds it): the form is for more.
function AddEvent({ onAdd }) {
  const { t } = useApp();
  const [name, setName] = useState("");
  const [day, setDay] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    if (!name.trim() || !day) return;
    if (await onAdd({ name, day })) {
      setName("");
      setDay("");
    }
  };
  return html`<form class="mc-card mc-row" onSubmit=${submit}>
    <label class="mc-sr-only" for="event-name">${t("countdown.what")}</label>
    <input id="event-name" class="mc-grow" placeholder=${t("countdown.what")} value=${name}
      onInput=${(e) => setName(e.currentTarget.value)} />
    <label class="mc-sr-only" for="event-day">${t("common.date")}</label>
    <input id="event-day" type="date" value=${day} onInput=${(e) => setDay(e.currentTarget.value)} />
    <button type="submit" disabled=${!name.trim() || !day}>${t("common.add")}</button>
  </form>`;
}

function EventCard({ event, now, onDelete }) {
  const { t, fmtDate, fmtNumber } = useApp();
  const days = daysBetween(now, event.day);
  const words = days > 0 ? t("countdown.days_left", { n: fmtNumber(days) })
    : days === 0 ? t("countdown.today") : t("countdown.days_ago", { n: fmtNumber(-days) });
  return html`<li class=${`event${days < 0 ? " past" : ""}`}>
    <div class="event-days"><span class="event-number">${days === 0 ? "🎉" : fmtNumber(Math.abs(days))}</span></div>
    <div class="mc-grow event-body">
      <span class="event-name">${event.name}</span>
      <span class="mc-note">${fmtDate(event.day, "long")} · ${words}</span>
    </div>
    <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(event.id)}>✕</button>
  </li>`;
}

function App() {
  const { t } = useApp();
  const { data: events, error, attempt } = useLoaded(() => api("api/events"), []);
  const add = (event) => attempt(() => api("api/events", { method: "POST", body: event }));
  const remove = (id) => attempt(() => api(`api/events/${id}`, { method: "DELETE" }));

  if (!events) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  const now = today();
  const ahead = events.filter((e) => e.day >= now);
  const past = events.filter((e) => e.day < now).reverse();
  const next = ahead[0];
  return html`
    <${Header} subtitle=${next ? t("countdown.next", { name: next.name, n: daysBetween(now, next.day) }) : t("countdown.nothing_ahead")} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <${AddEvent} onAdd=${add} />
    <section class="mc-card">
      ${events.length === 0
        ? html`<p class="mc-empty">${t("countdown.empty")}</p>`
        : html`<ul class="mc-list">${[...ahead, ...past].map((e) => html`<${EventCard} key=${e.id} event=${e} now=${now} onDelete=${remove} />`)}</ul>`}
    </section>
  `;
}

boot(App);
