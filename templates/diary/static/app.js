// Mood or food diary: write a few words, pick a mood face (or the meal), see the days
// before, newest first. config.kind chooses "mood" or "food".
import { useCallback, useEffect, useState } from "preact/hooks";
import { html, api, boot, useApp, Header } from "./macaron.js";
import { today } from "./i18n.js";

const DEFAULT_MOODS = ["😢", "😕", "😐", "🙂", "😄"];
const DEFAULT_MEALS = ["breakfast", "lunch", "dinner", "snack"];

function mealName(meal, t) {
  const key = `meal.${meal}`;
  return t(key) === key ? meal : t(key);
}

function Composer({ onSave }) {
  const { t, config } = useApp();
  const food = config.kind === "food";
  const moods = config.moods || DEFAULT_MOODS;
  const meals = config.meals || DEFAULT_MEALS;
  const [day, setDay] = useState(today());
  const [mood, setMood] = useState(null);
  const [meal, setMeal] = useState(food ? meals[0] : null);
  const [text, setText] = useState("");
  const ready = text.trim() !== "" || (!food && mood !== null);

  const submit = async (event) => {
    event.preventDefault();
    if (!ready) return;
    if (await onSave({ day, text, mood: food ? null : mood, meal: food ? meal : null })) {
      setText("");
      setMood(null);
    }
  };

  return html`<form class="mc-card mc-stack composer" onSubmit=${submit}>
    <label class="mc-sr-only" for="entry-text">${t(food ? "diary.food_prompt" : "diary.mood_prompt")}</label>
    ${food
      ? html`<div class="mc-row choices" role="group" aria-label=${t("diary.meal")}>
          ${meals.map((m) => html`<button type="button" key=${m} class="choice" aria-pressed=${meal === m}
              onClick=${() => setMeal(m)}>${mealName(m, t)}</button>`)}
        </div>`
      : html`<div class="mc-row choices moods" role="group" aria-label=${t("diary.mood")}>
          ${moods.map((face, i) => html`<button type="button" key=${i} class="choice mood" aria-pressed=${mood === i + 1}
              aria-label=${t("diary.mood_n", { n: i + 1, of: moods.length })} onClick=${() => setMood(mood === i + 1 ? null : i + 1)}>${face}</button>`)}
        </div>`}
    <textarea id="entry-text" placeholder=${t(food ? "diary.food_prompt" : "diary.mood_prompt")}
      value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
    <div class="mc-row">
      <label class="mc-sr-only" for="entry-day">${t("common.date")}</label>
      <input id="entry-day" type="date" class="mc-grow" value=${day} max=${today()} onInput=${(e) => setDay(e.currentTarget.value || today())} />
      <button type="submit" disabled=${!ready}>${t("common.save")}</button>
    </div>
  </form>`;
}

function MoodChart({ points }) {
  const { t, fmtWeekday, config } = useApp();
  const moods = config.moods || DEFAULT_MOODS;
  if (!points.some((p) => p.mood !== null)) return null;
  return html`<section class="mc-card">
    <h2>${t("diary.recent_moods")}</h2>
    <ol class="mood-chart">
      ${points.map((p) => html`<li key=${p.day} title=${p.mood === null ? "" : moods[Math.round(p.mood) - 1]}>
        <span class="bar" style=${{ height: p.mood === null ? "4px" : `${(p.mood / moods.length) * 64}px` }}></span>
        <span class="mc-note">${fmtWeekday(p.day, "narrow")}</span>
      </li>`)}
    </ol>
  </section>`;
}

function EntryList({ entries, onDelete }) {
  const { t, config, fmtDate, fmtTime } = useApp();
  const moods = config.moods || DEFAULT_MOODS;
  if (entries.length === 0) return html`<p class="mc-empty">${t("diary.empty")}</p>`;
  const days = [...new Set(entries.map((e) => e.day))];
  const label = (day) => (day === today() ? t("common.today") : day === today(-1) ? t("common.yesterday") : fmtDate(day));
  return days.map((day) => html`<section class="mc-card day" key=${day}>
    <h2>${label(day)}</h2>
    <ul class="mc-list entries">
      ${entries.filter((e) => e.day === day).map((e) => html`<li key=${e.id} class="entry">
        ${e.mood !== null && html`<span class="entry-mood" aria-hidden="true">${moods[e.mood - 1] || "•"}</span>`}
        <div class="mc-grow entry-body">
          ${e.meal && html`<span class="mc-chip">${mealName(e.meal, t)}</span>`}
          <p class="entry-text">${e.text}</p>
          <span class="mc-note">${fmtTime(e.created_at.slice(11, 16))}</span>
        </div>
        <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(e.id)}>✕</button>
      </li>`)}
    </ul>
  </section>`);
}

function App() {
  const { t, config, fmtDate } = useApp();
  const [entries, setEntries] = useState(null);
  const [moods, setMoods] = useState([]);
  const [error, setError] = useState(null);

  const load = useCallback(async () => {
    try {
      const [list, points] = await Promise.all([api("api/entries"), api(`api/moods?end=${today()}&days=14`)]);
      setEntries(list);
      setMoods(points);
      setError(null);
    } catch (e) {
      setError(e.message);
    }
  }, []);
  useEffect(() => { load(); }, [load]);

  const save = async (entry) => {
    try {
      await api("api/entries", { method: "POST", body: entry });
      await load();
      return true;
    } catch (e) {
      setError(e.message);
      return false;
    }
  };
  const remove = async (id) => {
    try {
      await api(`api/entries/${id}`, { method: "DELETE" });
    } catch (e) {
      setError(e.message);
    }
    await load();
  };

  if (!entries) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  return html`
    <${Header} subtitle=${fmtDate(today(), "long")} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <${Composer} onSave=${save} />
    ${config.kind !== "food" && html`<${MoodChart} points=${moods} />`}
    <${EntryList} entries=${entries} onDelete=${remove} />
  `;
}

boot(App);
