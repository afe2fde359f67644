// Habit and intake tracker: one card per habit with a progress bar toward today's goal,
// one-tap logging, a week strip and today's log.
import { useCallback, useEffect, useState } from "preact/hooks";
import { html, api, boot, useApp, Header } from "./macaron.js";
import { today } from "./i18n.js";

function useAmountText() {
  const { t, fmtNumber, fmtQuantity } = useApp();
  // Counting units ("steps", "times") have words in app.json; measures use Intl units.
  return (value, unit) => {
    const key = `unit.${unit}`;
    const word = t(key, { n: fmtNumber(value, { maximumFractionDigits: 1 }) });
    return word === key ? fmtQuantity(value, unit) : word;
  };
}

function habitName(habit, t) {
  if (habit.label) return habit.label;
  const key = `habit.${habit.key}`;
  return t(key) === key ? habit.key : t(key);
}

function HabitCard({ habit, total, onAdd, onUndo, canUndo }) {
  const { t } = useApp();
  const amount = useAmountText();
  const share = habit.goal > 0 ? Math.min(total / habit.goal, 1) : 0;
  const done = total >= habit.goal;
  return html`<section class="mc-card habit" data-habit=${habit.key}>
    <div class="habit-top">
      <span class="habit-icon" aria-hidden="true">${habit.icon || "⭐"}</span>
      <div class="habit-text">
        <h2>${habitName(habit, t)}</h2>
        <p class="mc-muted">
          <span class="total">${amount(total, habit.unit)}</span> / ${amount(habit.goal, habit.unit)}
          ${done && html` <span class="mc-chip done">${t("habit.goal_met")}</span>`}
        </p>
      </div>
    </div>
    <div class="mc-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
         aria-valuenow=${Math.round(share * 100)}><span style=${{ width: `${share * 100}%` }}></span></div>
    <div class="mc-row habit-actions">
      <button class="add" onClick=${() => onAdd(habit.key, habit.step)}>+ ${amount(habit.step, habit.unit)}</button>
      <button class="mc-button-quiet undo" disabled=${!canUndo} onClick=${() => onUndo(habit.key)}>${t("habit.undo")}</button>
    </div>
  </section>`;
}

function WeekStrip({ history, habits }) {
  const { t, fmtWeekday } = useApp();
  const score = (totals) => {
    const goals = habits.filter((h) => h.goal > 0);
    if (!goals.length) return 0;
    return goals.reduce((sum, h) => sum + Math.min((totals[h.key] || 0) / h.goal, 1), 0) / goals.length;
  };
  return html`<section class="mc-card">
    <h2>${t("habit.week")}</h2>
    <ol class="week">
      ${history.map(({ day, totals }) => {
        const s = score(totals);
        return html`<li key=${day} title=${`${Math.round(s * 100)}%`}>
          <span class="week-dot" style=${{ "--fill": `${Math.round(s * 100)}%` }}></span>
          <span class="mc-note">${fmtWeekday(day)}</span>
        </li>`;
      })}
    </ol>
  </section>`;
}

function TodayLog({ entries, habits, onDelete }) {
  const { t, fmtTime } = useApp();
  const amount = useAmountText();
  const byKey = Object.fromEntries(habits.map((h) => [h.key, h]));
  return html`<section class="mc-card">
    <h2>${t("habit.log")}</h2>
    ${entries.length === 0
      ? html`<p class="mc-empty">${t("habit.nothing_yet")}</p>`
      : html`<ul class="mc-list log">
          ${[...entries].reverse().map((entry) => {
            const habit = byKey[entry.habit] || { key: entry.habit, unit: "" };
            return html`<li key=${entry.id}>
              <span aria-hidden="true">${habit.icon || "⭐"}</span>
              <span class="mc-grow">${habitName(habit, t)} · ${amount(entry.amount, habit.unit)}</span>
              <span class="mc-note">${fmtTime(entry.created_at.slice(11, 16))}</span>
              <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(entry.id)}>✕</button>
            </li>`;
          })}
        </ul>`}
  </section>`;
}

function App() {
  const { t, config, fmtDate } = useApp();
  const habits = (config.habits || []).filter((h) => h && h.key);
  const day = today();
  const [dayData, setDayData] = useState(null);
  const [history, setHistory] = useState([]);
  const [error, setError] = useState(null);

  const load = useCallback(async () => {
    try {
      const [d, h] = await Promise.all([api(`api/days/${day}`), api(`api/history?end=${day}&days=7`)]);
      setDayData(d);
      setHistory(h);
      setError(null);
    } catch (e) {
      setError(e.message);
    }
  }, [day]);
  useEffect(() => { load(); }, [load]);

  const act = (work) => async (...args) => {
    try {
      await work(...args);
    } catch (e) {
      setError(e.message);
    }
    await load();
  };
  const add = act((habit, amount) => api("api/entries", { method: "POST", body: { habit, amount, day } }));
  const remove = act((id) => api(`api/entries/${id}`, { method: "DELETE" }));
  const undo = act((habit) => {
    const last = [...dayData.entries].reverse().find((e) => e.habit === habit);
    return last && api(`api/entries/${last.id}`, { method: "DELETE" });
  });

  if (!dayData) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  return html`
    <${Header} subtitle=${`${t("common.today")} · ${fmtDate(day)}`} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    ${habits.length === 0 && html`<p class="mc-empty">${t("habit.no_habits")}</p>`}
    ${habits.map((habit) => html`<${HabitCard} key=${habit.key} habit=${habit}
        total=${dayData.totals[habit.key] || 0}
        canUndo=${dayData.entries.some((e) => e.habit === habit.key)}
        onAdd=${add} onUndo=${undo} />`)}
    <${WeekStrip} history=${history} habits=${habits} />
    <${TodayLog} entries=${dayData.entries} habits=${habits} onDelete=${remove} />
  `;
}

boot(App);
