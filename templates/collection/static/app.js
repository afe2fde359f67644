// Collection: add a thing with its details and a rating; the best rated come first.
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today } from "./i18n.js";

// A word macaron knows ("book", "lent to") in the person's language, else as written.
function known(prefix, name, t) {
  const key = `${prefix}.${name}`;
  return t(key) === key ? name : t(key);
}

function Stars({ value, onRate, label }) {
  return html`<span class="stars" role="group" aria-label=${label}>
    ${[1, 2, 3, 4, 5].map((n) => html`<button type="button" key=${n}
      class=${`star${value && n <= value ? " on" : ""}`} aria-pressed=${Boolean(value && n <= value)}
      aria-label=${`${n}/5`} onClick=${() => onRate(value === n ? null : n)}>★</button>`)}
  </span>`;
}

function AddItem({ onAdd }) {
  const { t, config } = useApp();
  const attributes = config.attributes || [];
  const [name, setName] = useState("");
  const [details, setDetails] = useState({});
  const [rating, setRating] = useState(null);
  const [every, setEvery] = useState("");
  const noun = known("item", config.item || "item", t);
  const submit = async (event) => {
    event.preventDefault();
    if (!name.trim()) return;
    const care = config.every && Number(every) > 0 ? { every_days: Number(every) } : {};
    if (await onAdd({ name, details, rating: config.rating ? rating : null, ...care })) {
      setName("");
      setEvery("");
      setDetails({});
      setRating(null);
    }
  };
  return html`<form class="mc-card mc-stack" onSubmit=${submit}>
    <div class="mc-row">
      <label class="mc-sr-only" for="item-name">${t("collection.name", { item: noun })}</label>
      <input id="item-name" class="mc-grow" placeholder=${t("collection.name", { item: noun })} value=${name}
        onInput=${(e) => setName(e.currentTarget.value)} />
      <button type="submit" disabled=${!name.trim()}>${t("common.add")}</button>
    </div>
    ${attributes.length > 0 && html`<div class="mc-row">
      ${attributes.map((a) => html`<label class="detail mc-grow" key=${a}>
        <span class="mc-note">${known("attr", a, t)}</span>
        <input value=${details[a] || ""} onInput=${(e) => setDetails({ ...details, [a]: e.currentTarget.value })} />
      </label>`)}
    </div>`}
    ${config.every && html`<label class="detail"><span class="mc-note">${t("collection.every_label")}</span>
      <input type="number" min="1" max="366" inputmode="numeric" value=${every} onInput=${(e) => setEvery(e.currentTarget.value)} />
    </label>`}
    ${config.rating && html`<div class="mc-row"><span class="mc-note">${t("collection.rating")}</span>
      <${Stars} value=${rating} onRate=${setRating} label=${t("collection.rating")} /></div>`}
  </form>`;
}

// Care every few days: how often, when last, when next; due (or late) stands out.
function Care({ item, onDone }) {
  const { t, fmtDate } = useApp();
  const due = item.next_due <= today();
  return html`<span class="item-meta care">
    <span class="mc-chip">${t("collection.every", { n: item.every_days })}</span>
    <span class="mc-chip">${t("collection.last_done", { date: item.last_done ? fmtDate(item.last_done) : t("collection.never") })}</span>
    <span class=${`mc-chip${due ? " due" : ""}`}>${due ? t("collection.due") : t("collection.next", { date: fmtDate(item.next_due) })}</span>
    <button type="button" class="mc-button-quiet" onClick=${() => onDone(item)}>${t("collection.done")}</button>
  </span>`;
}

function ItemRow({ item, onRate, onDelete, onDone }) {
  const { t, config } = useApp();
  const details = Object.entries(item.details || {});
  return html`<li class="item">
    <div class="mc-grow item-body">
      <span class="item-name">${item.name}</span>
      ${details.length > 0 && html`<span class="item-meta">
        ${details.map(([k, v]) => html`<span class="mc-chip" key=${k}>${known("attr", k, t)}: ${v}</span>`)}
      </span>`}
      ${item.every_days && html`<${Care} item=${item} onDone=${onDone} />`}
    </div>
    ${config.rating && html`<${Stars} value=${item.rating} label=${t("collection.rate", { name: item.name })}
      onRate=${(n) => onRate(item, n)} />`}
    <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(item.id)}>✕</button>
  </li>`;
}

function App() {
  const { t, config } = useApp();
  const { data: items, error, attempt } = useLoaded(() => api("api/items"), []);
  const add = (item) => attempt(() => api("api/items", { method: "POST", body: item }));
  const rate = (item, rating) => attempt(() => api(`api/items/${item.id}`, { method: "PATCH", body: { rating } }));
  const remove = (id) => attempt(() => api(`api/items/${id}`, { method: "DELETE" }));
  const done = (item) => attempt(() => api(`api/items/${item.id}/done`, { method: "POST" }));

  if (!items) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  return html`
    <${Header} subtitle=${t("collection.count", { n: items.length })} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <${AddItem} onAdd=${add} />
    <section class="mc-card">
      ${items.length === 0
        ? html`<p class="mc-empty">${t("collection.empty", { item: known("item", config.item || "item", t) })}</p>`
        : html`<ul class="mc-list">${items.map((item) => html`<${ItemRow} key=${item.id} item=${item} onRate=${rate} onDelete=${remove} onDone=${done} />`)}</ul>`}
    </section>
  `;
}

boot(App);
