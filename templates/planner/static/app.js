// Planner: add a task with an optional day, time and category; see what is overdue, for
// today, coming up and for someday; tick tasks off.
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today } from "./i18n.js";

const PASTELS = ["--macaron-lavender", "--macaron-mint", "--macaron-apricot", "--macaron-pistachio", "--macaron-peach"];

// A word macaron knows for a category, a person ("me") or a shift, in the person's language;
// else as written.
function wordFor(kind, value, t) {
  const key = `${kind}.${value}`;
  return t(key) === key ? value : t(key);
}

// A rota's shift (morning, evening…) has an icon beside its name.
const SHIFT_ICONS = { morning: "🌅", afternoon: "☀️", evening: "🌆", night: "🌙" };

// One of a list, or none of it: a labelled choice (category, shift, who); nothing when the list is empty.
function Choice({ id, label, none, kind, options, value, onChange }) {
  const { t } = useApp();
  if (options.length === 0) return null;
  return html`<label class="mc-sr-only" for=${id}>${label}</label>
    <select id=${id} value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
      <option value="">${none}</option>
      ${options.map((o) => html`<option key=${o} value=${o}>${wordFor(kind, o, t)}</option>`)}
    </select>`;
}

function AddTask({ onAdd }) {
  const { t, config } = useApp();
  const categories = config.categories || [];
  const people = config.people || [];
  const shifts = config.shifts || [];
  const [shift, setShift] = useState("");
  const [title, setTitle] = useState("");
  const [day, setDay] = useState(today());
  const [time, setTime] = useState("");
  const [category, setCategory] = useState("");
  const [who, setWho] = useState("");
  const [weekly, setWeekly] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    if (!title.trim()) return;
    const added = await onAdd({ title, day: day || null, time: time || null, category: category || null,
      who: who || null, repeat: weekly && day ? "weekly" : null, shift: shift || null });
    if (added) setTitle("");
  };

  return html`<form class="mc-card mc-stack" onSubmit=${submit}>
    <div class="mc-row">
      <label class="mc-sr-only" for="task-title">${t("planner.new_task")}</label>
      <input id="task-title" class="mc-grow" placeholder=${t("planner.new_task")} value=${title}
        onInput=${(e) => setTitle(e.currentTarget.value)} />
      <button type="submit" disabled=${!title.trim()}>${t("common.add")}</button>
    </div>
    <div class="mc-row">
      <label class="mc-sr-only" for="task-day">${t("common.date")}</label>
      <input id="task-day" type="date" class="mc-grow" value=${day} onInput=${(e) => setDay(e.currentTarget.value)} />
      <label class="mc-sr-only" for="task-time">${t("planner.time")}</label>
      <input id="task-time" type="time" value=${time} onInput=${(e) => setTime(e.currentTarget.value)} />
      <${Choice} id="task-category" label=${t("planner.category")} none=${t("planner.no_category")} kind="category"
        options=${categories} value=${category} onChange=${setCategory} />
    </div>
    ${(people.length > 0 || shifts.length > 0 || config.repeat === "weekly") && html`<div class="mc-row">
      <${Choice} id="task-shift" label=${t("planner.shift")} none=${t("planner.any_shift")} kind="shift"
        options=${shifts} value=${shift} onChange=${setShift} />
      <${Choice} id="task-who" label=${t("planner.who")} none=${t("planner.anyone")} kind="person"
        options=${people} value=${who} onChange=${setWho} />
      ${config.repeat === "weekly" && html`<label class="repeat">
        <input type="checkbox" checked=${weekly} onChange=${(e) => setWeekly(e.currentTarget.checked)} />
        ${t("planner.weekly")}
      </label>`}
    </div>`}
    <p class="mc-note">${t("planner.someday_hint")}</p>
  </form>`;
}

function TaskRow({ task, onToggle, onDelete, showDay }) {
  const { t, config, fmtTime, fmtDate } = useApp();
  const categories = config.categories || [];
  const colour = PASTELS[Math.max(0, categories.indexOf(task.category)) % PASTELS.length];
  return html`<li class=${`task${task.done ? " done" : ""}`}>
    <input type="checkbox" checked=${task.done} aria-label=${t(task.done ? "planner.mark_open" : "planner.mark_done", { title: task.title })}
      onChange=${() => onToggle(task)} />
    <div class="mc-grow task-body">
      <span class="task-title">${task.title}</span>
      <span class="task-meta">
        ${showDay && task.day && html`<span class="mc-note">${fmtDate(task.day)}</span>`}
        ${task.time && html`<span class="mc-chip">${fmtTime(task.time)}</span>`}
        ${task.shift && html`<span class="mc-chip shift">${SHIFT_ICONS[task.shift] || "🕒"} ${wordFor("shift", task.shift, t)}</span>`}
        ${task.category && html`<span class="mc-chip" style=${{ background: `var(${colour})`, color: "#3A2328" }}>${wordFor("category", task.category, t)}</span>`}
        ${task.who && html`<span class="mc-chip who">👤 ${wordFor("person", task.who, t)}</span>`}
        ${task.repeat === "weekly" && html`<span class="mc-chip" title=${t("planner.weekly")}>🔁 ${t("planner.weekly")}</span>`}
      </span>
    </div>
    <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(task.id)}>✕</button>
  </li>`;
}

function Section({ title, tasks, kind, ...handlers }) {
  if (tasks.length === 0) return null;
  return html`<section class=${`mc-card section ${kind}`} data-section=${kind}>
    <h2>${title} <span class="mc-chip">${tasks.length}</span></h2>
    <ul class="mc-list">${tasks.map((task) => html`<${TaskRow} key=${task.id} task=${task} showDay=${kind !== "today"} ...${handlers} />`)}</ul>
  </section>`;
}

function App() {
  const { t, config, fmtDate } = useApp();
  const { data: tasks, error, attempt } = useLoaded(() => api("api/tasks"), []);
  const add = (task) => attempt(() => api("api/tasks", { method: "POST", body: task }));
  const toggle = (task) => attempt(() => api(`api/tasks/${task.id}`, { method: "PATCH", body: { done: !task.done } }));
  const remove = (id) => attempt(() => api(`api/tasks/${id}`, { method: "DELETE" }));

  if (!tasks) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  const now = today();
  const open = tasks.filter((task) => !task.done);
  const handlers = { onToggle: toggle, onDelete: remove };
  const left = open.filter((task) => task.day === now).length;
  return html`
    <${Header} subtitle=${`${fmtDate(now, "long")} · ${t("planner.left_today", { n: left })}`} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <${AddTask} onAdd=${add} />
    ${tasks.length === 0 && html`<p class="mc-empty">${t("planner.empty")}</p>`}
    <${Section} kind="overdue" title=${t("planner.overdue")} tasks=${open.filter((x) => x.day && x.day < now)} ...${handlers} />
    <${Section} kind="today" title=${t("common.today")} tasks=${open.filter((x) => x.day === now)} ...${handlers} />
    <${Section} kind="upcoming" title=${t("planner.upcoming")} tasks=${open.filter((x) => x.day && x.day > now)} ...${handlers} />
    <${Section} kind="someday" title=${t("planner.someday")} tasks=${open.filter((x) => !x.day)} ...${handlers} />
    ${config.show_done !== false && html`<${Section} kind="done" title=${t("planner.done")}
        tasks=${tasks.filter((x) => x.done).sort((a, b) => (b.done_at || "").localeCompare(a.done_at || "")).slice(0, 20)} ...${handlers} />`}
  `;
}

boot(App);
