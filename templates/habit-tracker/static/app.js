// Habit and intake tracker: one card per habit with a progress bar toward today's goal,
// one-tap logging, a week strip and today's log.
import { useCallback, useEffect, useState } from "preact/hooks";
import { html, api, boot, useApp, Header } from "./macaron.js";
import { today, weekEnd } from "./i18n.js";

function useAmountText() {
  const { t, locale, fmtNumber, fmtQuantity } = useApp();
  const plural = new Intl.PluralRules(locale);
  // Counting units ("steps", "times") have words in app.json, with a `.one` form where the
  // language says one differently ("1 cup", "2 cups"); measures use Intl units.
  return (value, unit) => {
    const key = plural.select(value) === "one" ? `unit.${unit}.one` : `unit.${unit}`;
    const n = fmtNumber(value, { maximumFractionDigits: 1 });
    const word = t(key, { n });
    if (word !== key) return word;
    const many = t(`unit.${unit}`, { n });
    return many === `unit.${unit}` ? fmtQuantity(value, unit) : many;
  };
}

// Icons of the measures macaron knows; a habit's own icon wins.
const ICONS = {
  water: "💧", steps: "👟", medication: "💊", sleep: "😴", exercise: "🏃", stretching: "🤸", reading: "📖", meditation: "🧘",
  vegetables: "🥦", coffee: "☕", tea: "🍵", body_weight: "⚖️", blood_pressure: "🩺", blood_sugar: "🩸",
  practice: "🎹", glasses: "🥤", pulse: "❤️", body_fat: "📊", feeding: "🍼", running: "🏃", run_time: "⏱️", pace: "🏁",
};

function habitIcon(habit) {
  return habit.icon || ICONS[habit.key] || "⭐";
}

function habitName(habit, t) {
  if (habit.label) return habit.label;
  const key = `habit.${habit.key}`;
  return t(key) === key ? habit.name || habit.key : t(key);
}

// A reading (weight, blood pressure) is taken, not added up: the server says how each habit's
// figure combines (server/app_figures.py), the same figure the digest and the friend say.
function isReading(figure) {
  return !!figure && figure.combine !== "sum";
}

// The time of day an entry now belongs to: the first of the habit's times before noon.
function partNow(times) {
  if (!times.length) return null;
  return new Date().getHours() < 12 ? times[0] : times[times.length - 1];
}

// A unit as the page writes it after a number ("kg", "mL", "時間", "%"), without the number.
function unitSymbol(fmtQuantity, unit) {
  return fmtQuantity(0, unit).replace(/^[\p{N}\s.,]*/u, "").trim() || unit;
}

function EntryForm({ habit, onAdd }) {
  const { t, displayUnit, fmtQuantity } = useApp();
  const names = (habit.values || []).length > 1 ? habit.values : [null];
  const [texts, setTexts] = useState(names.map(() => ""));
  const times = habit.times || [];
  const [part, setPart] = useState(partNow(times));
  const shown = displayUnit(habit.unit);
  const submit = (event) => {
    event.preventDefault();
    const numbers = texts.map((text) => parseFloat(String(text).replace(",", ".")));
    if (numbers.some((n) => !(n > 0))) return;
    const [first, second] = numbers.map((n) => n / shown.factor); // stored in the habit's own unit
    onAdd(habit.key, first, second ?? null, part);
    setTexts(names.map(() => ""));
  };
  return html`<form class="mc-row habit-entry" onSubmit=${submit}>
    ${names.map((name, i) => html`<label class="habit-field mc-grow">
      <span class="mc-note">${name ? t(`value.${name}`) : t("habit.amount_in", { unit: unitSymbol(fmtQuantity, habit.unit) })}</span>
      <input type="number" inputmode="decimal" min="0" step="any" required value=${texts[i]}
        onInput=${(e) => setTexts(texts.map((old, j) => (j === i ? e.currentTarget.value : old)))} />
    </label>`)}
    ${times.length > 1 && html`<label class="habit-field">
      <span class="mc-note">${t("habit.time")}</span>
      <select value=${part} onChange=${(e) => setPart(e.currentTarget.value)}>
        ${times.map((p) => html`<option value=${p}>${t(`time.${p}`)}</option>`)}
      </select>
    </label>`}
    <button type="submit" class="add">${t("habit.add")}</button>
  </form>`;
}

// Several values of one entry or figure ("135/85 mmHg"): the numbers, then the unit once.
function valuesText(values, habit, amount) {
  if (values.length === 1) return amount(values[0], habit.unit);
  return `${values.map((v) => Math.round(v)).join("/")} ${habit.unit}`;
}

function entryText(entry, habit, amount, t) {
  const value = valuesText(entry.amount2 != null ? [entry.amount, entry.amount2] : [entry.amount], habit, amount);
  return entry.part ? `${value} · ${t(`time.${entry.part}`)}` : value;
}

// A goal for a week or a month counts the period's entries so far, said with its period.
const overPeriods = (habit) => habit.period === "weekly" || habit.period === "monthly";

function HabitCard({ habit, figure, periodFigure, onAdd, onUndo, canUndo }) {
  const { t } = useApp();
  const amount = useAmountText();
  const reading = isReading(figure);
  const values = (figure && figure.values) || null;
  const counted = overPeriods(habit) && periodFigure ? periodFigure.values : values;
  const total = reading ? 0 : (counted ? counted[0] : 0);
  const per = overPeriods(habit) ? ` ${t(`habit.per_${habit.period}`)}` : "";
  const hasGoal = habit.goal > 0;
  const share = hasGoal ? Math.min(total / habit.goal, 1) : 0;
  const done = hasGoal && !reading && total >= habit.goal;
  return html`<section class="mc-card habit" data-habit=${habit.key}>
    <div class="habit-top">
      <span class="habit-icon" aria-hidden="true">${habitIcon(habit)}</span>
      <div class="habit-text">
        <h2>${habitName(habit, t)}</h2>
        <p class="mc-muted">
          ${reading
            ? html`<span class="total">${values ? valuesText(values, habit, amount) : t("habit.no_reading")}</span>`
            : html`<span class="total">${amount(total, habit.unit)}</span>${hasGoal && html` / ${amount(habit.goal, habit.unit)}${per}`}`}
          ${done && html` <span class="mc-chip done">${t("habit.goal_met")}</span>`}
        </p>
      </div>
    </div>
    ${hasGoal && !reading && html`<div class="mc-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
         aria-valuenow=${Math.round(share * 100)}><span style=${{ width: `${share * 100}%` }}></span></div>`}
    ${(habit.free_entry || reading) && html`<${EntryForm} habit=${habit} onAdd=${onAdd} />`}
    <div class="mc-row habit-actions">
      ${!reading && html`<button class="add" onClick=${() => onAdd(habit.key, habit.step)}>+ ${amount(habit.step, habit.unit)}</button>`}
      <button class="mc-button-quiet undo" disabled=${!canUndo} onClick=${() => onUndo(habit.key)}>${t("habit.undo")}</button>
    </div>
  </section>`;
}

// Monday to Sunday, the week the digest's "this week" counts; the days ahead are drawn faint.
function WeekStrip({ history, habits }) {
  const { t, fmtWeekday } = useApp();
  const score = (figures) => {
    const goals = habits.filter((h) => h.goal > 0 && !overPeriods(h) && figures[h.key] && !isReading(figures[h.key]));
    if (!goals.length) return 0;
    return goals.reduce((sum, h) => sum + Math.min(figures[h.key].values[0] / h.goal, 1), 0) / goals.length;
  };
  return html`<section class="mc-card">
    <h2>${t("habit.week")}</h2>
    <ol class="week">
      ${history.map(({ day, figures }) => {
        const s = score(figures);
        return html`<li key=${day} data-day=${day} class=${day > today() ? "ahead" : ""} title=${`${Math.round(s * 100)}%`}>
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
              <span aria-hidden="true">${habitIcon(habit)}</span>
              <span class="mc-grow">${habitName(habit, t)} · ${entryText(entry, habit, amount, t)}</span>
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
      const [d, h] = await Promise.all([api(`api/days/${day}`), api(`api/history?end=${weekEnd()}&days=7`)]);
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
  const add = act((habit, amount, amount2 = null, part = null) =>
    api("api/entries", { method: "POST", body: { habit, amount, amount2, part, day } }));
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
        figure=${dayData.figures[habit.key]} periodFigure=${(dayData.period_figures || {})[habit.key]}
        canUndo=${dayData.entries.some((e) => e.habit === habit.key)}
        onAdd=${add} onUndo=${undo} />`)}
    <${WeekStrip} history=${history} habits=${habits} />
    <${TodayLog} entries=${dayData.entries} habits=${habits} onDelete=${remove} />
  `;
}

boot(App);
