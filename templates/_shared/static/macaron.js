// The small runtime every macaron app shares: Preact + htm, JSON calls to the backend,
// and boot(), which loads the person's settings and words before the first render.
//
//   import { html, api, boot, useApp } from "./macaron.js";
//   function App() { const { t } = useApp(); return html`<h1>${t("app.title")}</h1>`; }
//   boot(App);

import { h, render, createContext } from "preact";
import { useCallback, useContext, useEffect, useState } from "preact/hooks";
import htm from "htm";
import { loadI18n } from "./i18n.js";

export const html = htm.bind(h);

const AppContext = createContext(null);

// Everything a component needs about the person: t, the formatters and config.
export function useApp() {
  return useContext(AppContext);
}

// fetch + JSON with errors a person can read. Paths are relative ("api/items").
export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    let detail = response.statusText;
    try {
      const payload = await response.json();
      detail = typeof payload.detail === "string" ? payload.detail : JSON.stringify(payload.detail);
    } catch {}
    throw new Error(detail || `HTTP ${response.status}`);
  }
  return response.status === 204 ? null : response.json();
}

// What a view shows from the backend: load() runs now and again whenever deps change; its
// result is data (null until the first load). attempt(work) runs a change, then loads again,
// and returns whether it worked; a failure of either lands in error, for the person to read.
//   const { data: items, error, attempt } = useLoaded(() => api("api/items"), []);
export function useLoaded(load, deps) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (e) {
      setError(e.message);
    }
  }, deps);
  useEffect(() => { reload(); }, [reload]);
  const attempt = async (work) => {
    try {
      await work();
      await reload();
      return true;
    } catch (e) {
      setError(e.message);
      return false;
    }
  };
  return { data, error, reload, attempt };
}

// Dark text on a light accent, light text on a dark one (WCAG relative luminance).
function textOn(hex) {
  const full = hex.length === 4 ? "#" + [...hex.slice(1)].map((c) => c + c).join("") : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? "#3A2328" : "#FFFFFF";
}

export async function boot(App) {
  const root = document.getElementById("app");
  try {
    const config = await api("api/config");
    const i18n = await loadI18n(config);
    const style = document.documentElement.style;
    style.setProperty("--macaron-accent", config.accent);
    style.setProperty("--macaron-on-accent", textOn(config.accent));
    document.documentElement.lang = i18n.lang;
    document.title = config.title || i18n.t("app.title");
    root.textContent = "";
    render(html`<${AppContext.Provider} value=${i18n}><${App} /><//>`, root);
  } catch (error) {
    root.textContent = `Could not start: ${error.message}`;
    throw error;
  }
}

// The header every app shows: the accent "macaron" dot, the title, an optional line.
export function Header({ subtitle }) {
  const { t, config } = useApp();
  return html`<header class="mc-header">
    <span class="mc-dot" aria-hidden="true"></span>
    <div>
      <h1>${config.title || t("app.title")}</h1>
      ${subtitle && html`<p class="mc-subtitle">${subtitle}</p>`}
    </div>
  </header>`;
}
