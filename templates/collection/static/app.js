// Collection: add a thing with its details and a rating; the best rated come first.
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";

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
  const noun = known("item", config.item || "item", t);
  const submit = async (event) => {
    event.preventDefault();
    if (!name.trim()) return;
    if (await onAdd({ name, details, rating: config.rating ? rating : null })) {
      setName("");
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
    ${config.rating && html`<div class="mc-row"><span class="mc-note">${t("collection.rating")}</span>
      <${Stars} value=${rating} onRate=${setRating} label=${t("collection.rating")} /></div>`}
  </form>`;
}

function ItemRow({ item, onRate, onDelete }) {
  const { t, config } = useApp();
  const details = Object.entries(item.details || {});
  return html`<li class="item">
    <div class="mc-grow item-body">
      <span class="item-name">${item.name}</span>
      ${details.length > 0 && html`<span class="item-meta">
        ${details.map(([k, v]) => html`<span class="mc-chip" key=${k}>${known("attr", k, t)}: ${v}</span>`)}
      </span>`}
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

  if (!items) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  return html`
    <${Header} subtitle=${t("collection.count", { n: items.length })} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <${AddItem} onAdd=${add} />
    <section class="mc-card">
      ${items.length === 0
        ? html`<p class="mc-empty">${t("collection.empty", { item: known("item", config.item || "item", t) })}</p>`
        : html`<ul class="mc-list">${items.map((item) => html`<${ItemRow} key=${item.id} item=${item} onRate=${rate} onDelete=${remove} />`)}</ul>`}
    </section>
  `;
}

boot(App);
