// Focus timer: work for the minutes chosen, then a break; a finished work session is kept.
// The clock counts to an end time (not by ticks), so a busy tab never makes it run slow.
import { useEffect, useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today, weekStart } from "./i18n.js";

const clock = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

function Timer({ onWorkDone }) {
  const { t, config } = useApp();
  const minutes = { work: Number(config.work_minutes) || 25, rest: Number(config.break_minutes) || 5 };
  const [phase, setPhase] = useState("work");
  const [left, setLeft] = useState(minutes.work * 60000); // while paused
  const [endsAt, setEndsAt] = useState(null); // while running
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    if (!endsAt) return undefined;
    const tick = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(tick);
  }, [endsAt]);

  const remaining = endsAt ? endsAt - now : left;
  const switchTo = (next) => {
    setPhase(next);
    setEndsAt(null);
    setLeft(minutes[next] * 60000);
  };
  useEffect(() => {
    if (!endsAt || remaining > 0) return;
    if (phase === "work") onWorkDone(minutes.work);
    switchTo(phase === "work" ? "rest" : "work");
    setEndsAt(Date.now() + minutes[phase === "work" ? "rest" : "work"] * 60000); // the next phase starts on its own
  }, [remaining <= 0]);
  useEffect(() => {
    document.title = endsAt ? `${clock(remaining)} · ${t(`timer.${phase}`)}` : config.title || t("app.title");
  });

  const start = () => setEndsAt(Date.now() + left);
  const pause = () => {
    setLeft(Math.max(0, endsAt - Date.now()));
    setEndsAt(null);
  };
  const share = 1 - remaining / (minutes[phase] * 60000);
  return html`<section class=${`mc-card timer ${phase}`} aria-live="polite">
    <p class="timer-phase">${t(`timer.${phase}`)} · ${t("timer.minutes", { n: minutes[phase] })}</p>
    <p class="timer-clock" role="timer">${clock(remaining)}</p>
    <div class="mc-progress" aria-hidden="true"><span style=${`width:${Math.round(share * 100)}%`}></span></div>
    <div class="mc-row timer-buttons">
      ${endsAt
        ? html`<button onClick=${pause}>${t("timer.pause")}</button>`
        : html`<button onClick=${start}>${t(left < minutes[phase] * 60000 ? "timer.resume" : "timer.start")}</button>`}
      <button class="mc-button-quiet" onClick=${() => switchTo(phase)}>${t("timer.reset")}</button>
      <button class="mc-button-quiet" onClick=${() => switchTo(phase === "work" ? "rest" : "work")}>
        ${t(phase === "work" ? "timer.skip_to_rest" : "timer.skip_to_work")}
      </button>
    </div>
  </section>`;
}

function App() {
  const { t, config, fmtDate, fmtNumber } = useApp();
  const monday = weekStart();
  const { data: sessions, error, attempt } = useLoaded(() => api(`api/sessions?since=${monday}`), [monday]);
  const log = (minutes) => attempt(() => api("api/sessions", { method: "POST", body: { minutes, day: today() } }));
  const remove = (id) => attempt(() => api(`api/sessions/${id}`, { method: "DELETE" }));

  if (!sessions) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  const now = today();
  const todays = sessions.filter((s) => s.day === now);
  const weekMinutes = sessions.reduce((sum, s) => sum + s.minutes, 0);
  return html`
    <${Header} subtitle=${t("timer.today", { count: fmtNumber(todays.length) })} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <${Timer} onWorkDone=${log} />
    <section class="mc-card">
      <h2>${t("timer.week", { count: fmtNumber(sessions.length), minutes: fmtNumber(weekMinutes) })}</h2>
      ${sessions.length === 0
        ? html`<p class="mc-empty">${t("timer.empty")}</p>`
        : html`<ul class="mc-list">${sessions.map((s) => html`<li key=${s.id}>
            <span class="mc-grow">${fmtDate(s.day)} · ${t("timer.minutes", { n: fmtNumber(s.minutes) })}</span>
            <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => remove(s.id)}>✕</button>
          </li>`)}</ul>`}
      <button class="mc-button-quiet" onClick=${() => log(Number(config.work_minutes) || 25)}>${t("timer.log_one")}</button>
    </section>
  `;
}

boot(App);
