// Unit converter and calculator: convert as you type, keep the results worth keeping,
// and work out plain arithmetic. Numbers follow the person's language (Intl).
import { useCallback, useEffect, useState } from "preact/hooks";
import { html, api, boot, useApp, Header } from "./macaron.js";

function Converter({ catalogue, onSave }) {
  const { t, config, fmtNumber } = useApp();
  const categories = Object.keys(catalogue);
  const [category, setCategory] = useState(categories[0]);
  const [value, setValue] = useState("1");
  const [pair, setPair] = useState({ from: catalogue[categories[0]].from, to: catalogue[categories[0]].to });
  const [result, setResult] = useState(null);
  const units = catalogue[category].units;
  const symbolOf = (id) => (units.find((u) => u.id === id) || { symbol: id }).symbol;
  const number = parseFloat(String(value).replace(",", "."));

  const choose = (next) => {
    setCategory(next);
    setPair({ from: catalogue[next].from, to: catalogue[next].to });
  };
  useEffect(() => {
    if (!Number.isFinite(number)) return setResult(null);
    let current = true;
    api(`api/convert?value=${number}&from_unit=${pair.from}&to_unit=${pair.to}`)
      .then((r) => current && setResult(r.result))
      .catch(() => current && setResult(null));
    return () => { current = false; };
  }, [number, pair.from, pair.to]);

  const digits = { maximumFractionDigits: Number(config.decimals ?? 4) };
  const unitSelect = (side) => html`<select id=${`unit-${side}`} class="mc-grow" value=${pair[side]}
      onChange=${(e) => setPair({ ...pair, [side]: e.currentTarget.value })}>
    ${units.map((u) => html`<option key=${u.id} value=${u.id}>${t(`unit.${u.id}`)}</option>`)}
  </select>`;

  return html`<section class="mc-card mc-stack">
    <div class="mc-tabs categories" role="tablist">
      ${categories.map((c) => html`<button key=${c} role="tab" aria-selected=${c === category} onClick=${() => choose(c)}>${t(`category.${c}`)}</button>`)}
    </div>
    <label class="mc-sr-only" for="value">${t("converter.value")}</label>
    <input id="value" class="value-input" inputmode="decimal" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
    <div class="mc-row">
      <label class="mc-sr-only" for="unit-from">${t("converter.from")}</label>
      ${unitSelect("from")}
      <button class="mc-button-quiet swap" aria-label=${t("converter.swap")} onClick=${() => setPair({ from: pair.to, to: pair.from })}>⇄</button>
      <label class="mc-sr-only" for="unit-to">${t("converter.to")}</label>
      ${unitSelect("to")}
    </div>
    <p class="result" data-result aria-live="polite">
      ${result === null ? "—" : `${fmtNumber(number, digits)} ${symbolOf(pair.from)} = ${fmtNumber(result, digits)} ${symbolOf(pair.to)}`}
    </p>
    <button disabled=${result === null} onClick=${() => onSave("api/conversions", { value: number, from_unit: pair.from, to_unit: pair.to })}>${t("converter.save")}</button>
  </section>`;
}

function Calculator({ onSave }) {
  const { t } = useApp();
  const [expression, setExpression] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    if (expression.trim() && (await onSave("api/calculations", { expression }))) setExpression("");
  };
  return html`<form class="mc-card mc-row" onSubmit=${submit}>
    <label class="mc-sr-only" for="expression">${t("converter.calculate")}</label>
    <input id="expression" class="mc-grow" inputmode="decimal" placeholder=${t("converter.expression_hint")}
      value=${expression} onInput=${(e) => setExpression(e.currentTarget.value)} />
    <button type="submit" aria-label=${t("converter.equals")} disabled=${!expression.trim()}>=</button>
  </form>`;
}

function SavedList({ items, onDelete }) {
  const { t, config, fmtNumber } = useApp();
  const digits = { maximumFractionDigits: Number(config.decimals ?? 4) };
  if (items.length === 0) return html`<p class="mc-empty">${t("converter.empty")}</p>`;
  return html`<section class="mc-card">
    <h2>${t("converter.saved")}</h2>
    <ul class="mc-list saved">
      ${items.map((item) => html`<li key=${item.id} class="saved-item">
        <span class="mc-grow">${item.kind === "convert"
          ? `${fmtNumber(item.value, digits)} ${item.from_symbol} = ${fmtNumber(item.result, digits)} ${item.to_symbol}`
          : `${item.expression} = ${fmtNumber(item.result, digits)}`}</span>
        <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(item.id)}>✕</button>
      </li>`)}
    </ul>
  </section>`;
}

function App() {
  const { t } = useApp();
  const [catalogue, setCatalogue] = useState(null);
  const [saved, setSaved] = useState([]);
  const [error, setError] = useState(null);

  const load = useCallback(async () => {
    try {
      const [units, items] = await Promise.all([api("api/units"), api("api/saved")]);
      setCatalogue(units);
      setSaved(items);
      setError(null);
    } catch (e) {
      setError(e.message);
    }
  }, []);
  useEffect(() => { load(); }, [load]);

  const save = async (path, body) => {
    try {
      await api(path, { method: "POST", body });
      await load();
      return true;
    } catch (e) {
      setError(e.message);
      return false;
    }
  };
  const remove = async (id) => {
    try {
      await api(`api/saved/${id}`, { method: "DELETE" });
    } catch (e) {
      setError(e.message);
    }
    await load();
  };

  if (!catalogue) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  return html`
    <${Header} subtitle=${t("converter.subtitle")} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    ${Object.keys(catalogue).length > 0 && html`<${Converter} catalogue=${catalogue} onSave=${save} />`}
    <${Calculator} onSave=${save} />
    <${SavedList} items=${saved} onDelete=${remove} />
  `;
}

boot(App);
