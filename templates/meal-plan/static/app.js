// Weekly meal plan: the week's days by meals, the dishes planned in each cell (one added
// with Enter or on leaving the box). Weeks start on Monday; the arrows move a week at a time.
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today } from "./i18n.js";

const ALL_MEALS = ["breakfast", "lunch", "dinner", "snack"];

function addDays(day, n) {
  const [y, m, d] = day.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d + n));
  return date.toISOString().slice(0, 10);
}

function mondayOf(day) {
  const [y, m, d] = day.split("-").map(Number);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday 0
  return addDays(day, -weekday);
}

// One day's meal: its dishes (✕ takes one off) and a box to add another (Enter or leaving it).
function Cell({ day, meal, dishes, onAdd, onRemove, label }) {
  const { t } = useApp();
  const [text, setText] = useState("");
  const add = async () => {
    if (text.trim() && (await onAdd(day, meal, text))) setText("");
  };
  return html`<td>
    ${dishes.map((d) => html`<span class="mc-chip dish" key=${d.id}><span class="dish-name">${d.dish}</span>
      <button class="mc-button-icon" aria-label=${`${t("common.delete")} ${d.dish}`} onClick=${() => onRemove(d.id)}>✕</button></span>`)}
    <input aria-label=${label} placeholder="+" value=${text} onInput=${(e) => setText(e.currentTarget.value)}
      onBlur=${add} onKeyDown=${(e) => e.key === "Enter" && add()} />
  </td>`;
}

function App() {
  const { t, config, fmtDate, fmtWeekday, fmtNumber } = useApp();
  const now = today();
  const [start, setStart] = useState(mondayOf(now));
  const { data: planned, error, attempt } = useLoaded(() => api(`api/plan?start=${start}`), [start]);
  const add = (day, meal, dish) => attempt(() => api("api/plan", { method: "POST", body: { day, meal, dish } }));
  const remove = (id) => attempt(() => api(`api/plan/${id}`, { method: "DELETE" }));

  if (!planned) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  const meals = (Array.isArray(config.meals) && config.meals.length ? config.meals : ALL_MEALS.slice(0, 3)).filter((m) => ALL_MEALS.includes(m));
  const dishesOf = (day, meal) => planned.filter((p) => p.day === day && p.meal === meal);
  const days = [...Array(7)].map((_, i) => addDays(start, i));
  const todays = meals.filter((m) => dishesOf(now, m).length).map((m) => `${t(`meal.${m}`)}: ${dishesOf(now, m).map((d) => d.dish).join(", ")}`);
  const filled = days.reduce((n, day) => n + meals.filter((m) => dishesOf(day, m).length).length, 0);
  return html`
    <${Header} subtitle=${todays.length ? t("plan.today", { meals: todays.join(" · ") }) : t("plan.nothing_today")} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <section class="mc-card">
      <div class="mc-row week-nav">
        <button class="mc-button-icon" aria-label=${t("plan.previous")} onClick=${() => setStart(addDays(start, -7))}>‹</button>
        <h2>${t("plan.week_of", { day: fmtDate(start, "long") })} · ${t("plan.filled", { n: fmtNumber(filled), of: fmtNumber(days.length * meals.length) })}</h2>
        <button class="mc-button-icon" aria-label=${t("plan.next")} onClick=${() => setStart(addDays(start, 7))}>›</button>
      </div>
      <table class="plan">
        <thead><tr><th class="day"></th>${meals.map((m) => html`<th scope="col">${t(`meal.${m}`)}</th>`)}</tr></thead>
        <tbody>
          ${days.map((day) => html`<tr class=${day === now ? "today" : ""} key=${day}>
            <th class="day" scope="row">${fmtWeekday(day)}<span class="day-date">${fmtDate(day, "short")}</span></th>
            ${meals.map((m) => html`<${Cell} key=${`${day}/${m}`} day=${day} meal=${m} dishes=${dishesOf(day, m)}
              onAdd=${add} onRemove=${remove} label=${`${fmtWeekday(day, "long")} ${t(`meal.${m}`)}`} />`)}
          </tr>`)}
        </tbody>
      </table>
    </section>
  `;
}

boot(App);
