// Budget and expense tracker: add what you spent, see the month against your budget and
// by category, browse month by month. Money is in the person's currency (Intl).
import { useState } from "preact/hooks";
import { html, api, boot, useApp, useLoaded, Header } from "./macaron.js";
import { today } from "./i18n.js";

const ICONS = { food: "🍙", transport: "🚃", home: "🏠", fun: "🎈", health: "💊", other: "🧾",
  shopping: "🛍️", bills: "💡", education: "📚", travel: "✈️", gifts: "🎁", pets: "🐾", savings: "🐷" };

// A word the app knows ("food", "me") in the person's language, else as written.
function named(prefix, word, t) {
  const key = `${prefix}.${word}`;
  return t(key) === key ? word : t(key);
}
const categoryName = (category, t) => named("category", category, t);

function shiftMonth(month, by) {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(y, m - 1 + by, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;
}

function AddExpense({ onAdd }) {
  const { t, config, toMinor, moneyDigits } = useApp();
  const categories = config.categories || [];
  const [amount, setAmount] = useState("");
  const [category, setCategory] = useState(categories[0]);
  const [note, setNote] = useState("");
  const [day, setDay] = useState(today());
  // Money lent goes to someone else: "me" is one side of every debt, never a borrower.
  const people = (config.people || []).filter((p) => !(config.debts && p === "me"));
  const [who, setWho] = useState(people[0]);
  const [repaid, setRepaid] = useState(false);
  const minor = toMinor(amount);
  const valid = Number.isFinite(minor) && minor > 0;

  const submit = async (event) => {
    event.preventDefault();
    if (!valid) return;
    const between = people.length > 0 ? { who, repaid: Boolean(config.debts) && repaid } : {};
    if (await onAdd({ amount_minor: minor, category, note, day, ...between })) {
      setAmount("");
      setNote("");
    }
  };

  return html`<form class="mc-card mc-stack" onSubmit=${submit}>
    <div class="mc-row">
      <label class="mc-sr-only" for="amount">${t("budget.amount")}</label>
      <input id="amount" class="mc-grow amount-input" inputmode="decimal" placeholder=${t("budget.amount_in", { currency: config.currency })}
        step=${moneyDigits ? 1 / 10 ** moneyDigits : 1} value=${amount} onInput=${(e) => setAmount(e.currentTarget.value)} />
      <button type="submit" disabled=${!valid}>${t("common.add")}</button>
    </div>
    <div class="categories" role="group" aria-label=${t("budget.category")}>
      ${categories.map((c) => html`<button type="button" key=${c} class="category" aria-pressed=${category === c}
          onClick=${() => setCategory(c)}><span aria-hidden="true">${ICONS[c] || "•"}</span> ${categoryName(c, t)}</button>`)}
    </div>
    ${people.length > 0 && html`<div class="categories" role="group" aria-label=${t("budget.who")}>
      ${config.debts && [false, true].map((back) => html`<button type="button" key=${String(back)} class="category"
          aria-pressed=${repaid === back} onClick=${() => setRepaid(back)}>${t(back ? "budget.repaid" : "budget.lent")}</button>`)}
      ${people.map((p) => html`<button type="button" key=${p} class="category" aria-pressed=${who === p}
          onClick=${() => setWho(p)}>👤 ${named("person", p, t)}</button>`)}
    </div>`}
    <div class="mc-row">
      <label class="mc-sr-only" for="note">${t("common.note")}</label>
      <input id="note" class="mc-grow" placeholder=${t("common.note")} value=${note} onInput=${(e) => setNote(e.currentTarget.value)} />
      <label class="mc-sr-only" for="day">${t("common.date")}</label>
      <input id="day" type="date" value=${day} onInput=${(e) => setDay(e.currentTarget.value || today())} />
    </div>
  </form>`;
}

// A savings goal: every deposit toward it, all months together; reaching it is never "over".
// What is put by each month is said beside it, with the months it still takes.
function Savings({ summary, goal, deposit }) {
  const { t, fmtMoney } = useApp();
  const saved = summary.all_time_minor;
  const share = goal > 0 ? Math.min(saved / goal, 1) : 0;
  const months = goal > saved && deposit > 0 ? Math.ceil((goal - saved) / deposit) : 0;
  return html`<section class="mc-card summary savings">
    <p class="mc-muted">${t("budget.saved")}</p>
    <p class="total" data-total>${fmtMoney(saved)}</p>
    ${goal > 0 && html`<div class="mc-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
      aria-valuenow=${Math.round(share * 100)}><span style=${{ width: `${share * 100}%` }}></span></div>
    <p class="mc-muted">${saved >= goal ? t("budget.goal_reached", { goal: fmtMoney(goal) })
      : t("budget.to_goal", { amount: fmtMoney(goal - saved), goal: fmtMoney(goal) })}</p>`}
    ${deposit > 0 && html`<p class="mc-muted deposit">${months
      ? t("budget.deposit_months", { amount: fmtMoney(deposit), months })
      : t("budget.deposit", { amount: fmtMoney(deposit) })}</p>`}
    <p class="mc-note">${t("budget.this_month", { amount: fmtMoney(summary.total_minor) })}</p>
    <p class="mc-note">${t("common.not_advice")}</p>
  </section>`;
}

function Summary({ summary }) {
  const { t, config, fmtMoney } = useApp();
  // The budget and goal as the server says them (server/currencies.py), the digest's too:
  // one set in another currency is said in it, never set against this one's spending.
  const set = summary.set || { budget_minor: 0, goal_minor: 0, comparable: true };
  const goal = set.comparable ? set.goal_minor : 0;
  const deposit = set.comparable ? set.deposit_minor || 0 : 0;
  if (goal > 0 || deposit > 0) return html`<${Savings} summary=${summary} goal=${goal} deposit=${deposit} />`;
  const budget = set.comparable ? set.budget_minor : 0;
  const setIn = !set.comparable && (set.goal_minor || set.budget_minor)
    ? t(set.goal_minor ? "budget.goal_set_in" : "budget.budget_set_in",
      { amount: fmtMoney(set.goal_minor || set.budget_minor, set.currency), now: config.currency })
    : "";
  const spent = summary.total_minor;
  const share = budget > 0 ? Math.min(spent / budget, 1) : 0;
  const over = budget > 0 && spent > budget;
  return html`<section class="mc-card summary">
    <p class="mc-muted">${t(config.debts ? "budget.lent_this_month" : "budget.spent")}</p>
    <p class="total" data-total>${fmtMoney(spent)}</p>
    ${(summary.also || []).length > 0 && html`<p class="mc-muted also">${t("budget.also", {
      amounts: summary.also.map((a) => fmtMoney(a.total_minor, a.currency)).join(", ") })}</p>`}
    ${setIn && html`<p class="mc-muted set-in">${setIn}</p>`}
    ${budget > 0 && html`
      <div class=${`mc-progress${over ? " over" : ""}`} role="progressbar" aria-valuemin="0" aria-valuemax="100"
        aria-valuenow=${Math.round(share * 100)}><span style=${{ width: `${share * 100}%` }}></span></div>
      <p class=${over ? "mc-error" : "mc-muted"}>
        ${over ? t("budget.over", { amount: fmtMoney(spent - budget) }) : t("budget.left", { amount: fmtMoney(budget - spent), budget: fmtMoney(budget) })}
      </p>`}
    ${Object.keys(summary.by_category).length > 0 && html`<ul class="mc-list by-category">
      ${Object.entries(summary.by_category).map(([c, minor]) => html`<li key=${c}>
        <span aria-hidden="true">${ICONS[c] || "•"}</span>
        <span class="mc-grow">${categoryName(c, t)}</span>
        <span class="bar"><span style=${{ width: `${(minor / spent) * 100}%` }}></span></span>
        <span class="amount">${fmtMoney(minor)}</span>
      </li>`)}
    </ul>`}
    <p class="mc-note">${t("common.not_advice")}</p>
  </section>`;
}

function ExpenseList({ expenses, onDelete }) {
  const { t, config, fmtMoney, fmtDate } = useApp();
  if (expenses.length === 0) return html`<p class="mc-empty">${t("budget.empty")}</p>`;
  return html`<section class="mc-card">
    <h2>${t(Number(config.savings_goal) > 0 || Number(config.monthly_deposit) > 0 ? "budget.deposits" : "budget.expenses")}</h2>
    <ul class="mc-list expenses">
      ${expenses.map((e) => html`<li key=${e.id} class="expense">
        <span class="expense-icon" aria-hidden="true">${ICONS[e.category] || "•"}</span>
        <div class="mc-grow">
          <div>${e.note || categoryName(e.category, t)}</div>
          <div class="mc-note">${fmtDate(e.day)} · ${categoryName(e.category, t)}${e.who ? ` · ${named("person", e.who, t)}` : ""}${e.repaid ? ` · ${t("budget.repaid")}` : ""}</div>
        </div>
        <span class="amount">${fmtMoney(e.amount_minor, e.currency)}</span>
        <button class="mc-button-icon" aria-label=${t("common.delete")} onClick=${() => onDelete(e.id)}>✕</button>
      </li>`)}
    </ul>
  </section>`;
}

// Where each person stands: shared bills against an equal share, or what each still owes.
function Balances({ balances }) {
  const { t, fmtMoney } = useApp();
  const line = (p) => {
    const name = named("person", p.name, t);
    const amount = fmtMoney(Math.abs(p.balance_minor));
    if (p.balance_minor === 0) return t("budget.settled", { name });
    if (p.name === "me") return t(p.balance_minor > 0 ? "budget.you_are_owed" : "budget.you_owe", { amount });
    if (balances.mode === "debts") return p.balance_minor > 0 ? t("budget.owes_you", { name, amount }) : t("budget.is_owed", { name, amount });
    return p.balance_minor > 0 ? t("budget.is_owed", { name, amount }) : t("budget.owes", { name, amount });
  };
  return html`<section class="mc-card balances">
    <h2>${t("budget.balances")}</h2>
    <ul class="mc-list">${balances.people.map((p) => html`<li key=${p.name} class="balance">
      <span class="mc-grow">${line(p)}</span>
      ${p.paid_minor !== undefined && html`<span class="mc-note">${t("budget.paid", { amount: fmtMoney(p.paid_minor) })}</span>`}
    </li>`)}</ul>
  </section>`;
}

function App() {
  const { t, config, fmtMonth } = useApp();
  const [month, setMonth] = useState(today().slice(0, 7));
  const shared = (config.people || []).length > 0;
  const { data, error, attempt } = useLoaded(async () => {
    const [expenses, summary, balances] = await Promise.all([api(`api/expenses?month=${month}`),
      api(`api/summary?month=${month}`), shared ? api("api/balances") : null]);
    return { expenses, summary, balances };
  }, [month]);
  const add = (expense) => attempt(async () => {
    await api("api/expenses", { method: "POST", body: expense });
    setMonth(expense.day.slice(0, 7));
  });
  const remove = (id) => attempt(() => api(`api/expenses/${id}`, { method: "DELETE" }));

  if (!data) return html`<p class="mc-muted">${error ? t("common.error", { message: error }) : t("common.loading")}</p>`;
  return html`
    <${Header} />
    ${error && html`<p class="mc-error" role="alert">${t("common.error", { message: error })}</p>`}
    <nav class="mc-row month-nav">
      <button class="mc-button-quiet" aria-label=${t("budget.previous_month")} onClick=${() => setMonth(shiftMonth(month, -1))}>‹</button>
      <h2 class="mc-grow">${fmtMonth(month)}</h2>
      <button class="mc-button-quiet" aria-label=${t("budget.next_month")} onClick=${() => setMonth(shiftMonth(month, 1))}>›</button>
    </nav>
    <${Summary} summary=${data.summary} />
    ${data.balances && html`<${Balances} balances=${data.balances} />`}
    <${AddExpense} onAdd=${add} />
    <${ExpenseList} expenses=${data.expenses} onDelete=${remove} />
  `;
}

boot(App);
