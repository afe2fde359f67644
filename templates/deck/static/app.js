// Study deck: review the cards due (front, then the back, then "again" or "good"), and add
// cards. Each side is named as the settings say: a language ("English") or a word ("Question").
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today } from "./i18n.js";

// A side's name in the person's language: the app's own word, else the language's name.
function useSides() {
  const { t, config, locale } = useApp();
  const sides = Array.isArray(config.sides) && config.sides.length === 2 ? config.sides : ["question", "answer"];
  return sides.map((side) => {
    if (t(`deck.side.${side}`) !== `deck.side.${side}`) return t(`deck.side.${side}`);
    try {
      return new Intl.DisplayNames([locale], { type: "language" }).of(side) || side;
    } catch {
      return side;
    }
  });
}

function Review({ cards, onAnswer }) {
  const { t } = useApp();
  const [front, back] = useSides();
  const [shown, setShown] = useState(false);
  if (cards.length === 0) return html`<section class="mc-card"><p class="mc-empty">${t("deck.none_due")}</p></section>`;
  const card = cards[0];
  const answer = async (grade) => {
    if (await onAnswer(card.id, grade)) setShown(false);
  };
  return html`<section class="mc-card flashcard" aria-live="polite">
    <p class="flashcard-side">${front}</p>
    <p class="flashcard-text">${card.front}</p>
    ${shown
      ? html`<div class="flashcard-back">
          <p class="flashcard-side">${back}</p>
          <p class="flashcard-text">${card.back}</p>
        </div>
        <div class="mc-row">
          <button class="mc-button-quiet" onClick=${() => answer("again")}>${t("deck.again")}</button>
          <button onClick=${() => answer("good")}>${t("deck.good")}</button>
        </div>`
      : html`<div class="mc-row"><button onClick=${() => setShown(true)}>${t("deck.show")}</button></div>`}
  </section>`;
}

function AddCard({ onAdd }) {
  const { t } = useApp();
  const [front, back] = useSides();
  const [text, setText] = useState({ front: "", back: "" });
  const ready = text.front.trim() && text.back.trim();
  const submit = async (event) => {
    event.preventDefault();
    if (ready && (await onAdd(text))) setText({ front: "", back: "" });
  };
  return html`<form class="mc-card mc-row" onSubmit=${submit}>
    <input class="mc-grow" aria-label=${front} placeholder=${front} value=${text.front}
      onInput=${(e) => setText({ ...text, front: e.currentTarget.value })} />
    <input class="mc-grow" aria-label=${back} placeholder=${back} value=${text.back}
      onInput=${(e) => setText({ ...text, back: e.currentTarget.value })} />
    <button type="submit" disabled=${!ready}>${t("common.add")}</button>
  </form>`;
}

function App() {
  const { t, fmtDate, fmtNumber } = useApp();
  const [chosen, setTab] = useState(null);
  const day = today();
  const { data, error, attempt } = useLoaded(
    async () => ({ due: await api(`api/due?day=${day}`), cards: await api("api/cards") }),
    [day],
  );
  const add = (text) => attempt(() => api("api/cards", { method: "POST", body: { ...text, day } }));
  const answer = (id, grade) => attempt(() => api(`api/cards/${id}/review`, { method: "POST", body: { grade, day } }));
  const remove = (id) => attempt(() => api(`api/cards/${id}`, { method: "DELETE" }));

  if (!data) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  const tab = chosen || (data.cards.length ? "review" : "cards"); // a new deck opens where cards are added
  const tabs = [["review", t("deck.review_tab", { n: fmtNumber(data.due.length) })], ["cards", t("deck.cards_tab", { n: fmtNumber(data.cards.length) })]];
  return html`
    <${Header} subtitle=${t("deck.due_today", { n: fmtNumber(data.due.length) })} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <div class="mc-tabs" role="tablist">
      ${tabs.map(([key, label]) => html`<button role="tab" aria-selected=${tab === key} onClick=${() => setTab(key)}>${label}</button>`)}
    </div>
    ${tab === "review"
      ? html`<${Review} cards=${data.due} onAnswer=${answer} />`
      : html`<${AddCard} onAdd=${add} />
        <section class="mc-card">
          ${data.cards.length === 0
            ? html`<p class="mc-empty">${t("deck.empty")}</p>`
            : html`<ul class="mc-list">${data.cards.map((c) => html`<li key=${c.id}>
                <div class="mc-grow card-text"><strong>${c.front}</strong><span>${c.back}</span>
                  <span class="mc-note">${c.due <= day ? t("deck.due_now") : t("deck.due_on", { day: fmtDate(c.due) })}</span></div>
                <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => remove(c.id)}>✕</button>
              </li>`)}</ul>`}
        </section>`}
  `;
}

boot(App);
