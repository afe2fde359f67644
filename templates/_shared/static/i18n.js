// UI text in the person's language, and their numbers, money, units and dates (Intl).
//
// Words live in two dictionaries of the same shape, {language: {key: text}}:
// static/i18n/common.json (shared by every macaron app) and static/i18n/app.json (this
// app's own). Every language must have every key (tests/test_i18n.py checks it); a key
// missing in the person's language falls back to English, then to the key itself.

// Languages whose usual Intl locale is not simply the language code.
const LOCALES = { en: "en-US", ja: "ja-JP", ko: "ko-KR", zh: "zh-CN", tl: "fil-PH" };

async function fetchDictionary(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

export async function loadI18n(config) {
  const [common, app, units] = await Promise.all([
    fetchDictionary("static/i18n/common.json"),
    fetchDictionary("static/i18n/app.json"),
    fetchDictionary("static/units.json"),
  ]);
  const lang = config.language || "en";
  const words = { ...common.en, ...app.en, ...(common[lang] || {}), ...(app[lang] || {}) };
  const locale = config.locale || LOCALES[lang] || lang;
  return makeI18n({ words, lang, locale, config, imperial: imperialOf(units) });
}

// Measurements are stored in metric; `units: "imperial"` changes only what is shown, in
// the unit static/units.json names, by the ratio of the two sizes it gives (the one table
// the server's digest and macaron read too).
function imperialOf(table) {
  const shown = {};
  for (const [metric, unit] of Object.entries(table.imperial)) {
    const family = Object.values(table.sizes).find((units) => metric in units && unit in units);
    shown[metric] = { unit, factor: family[metric][1] / family[unit][1] };
  }
  return shown;
}

export function makeI18n({ words, lang, locale, config, imperial = {} }) {
  const numberFormats = new Map();
  const number = (options = {}) => {
    const key = JSON.stringify(options);
    if (!numberFormats.has(key)) numberFormats.set(key, new Intl.NumberFormat(locale, options));
    return numberFormats.get(key);
  };
  const currency = config.currency || "USD";
  const digitsOf = (code) => number({ style: "currency", currency: code }).resolvedOptions().maximumFractionDigits;
  const moneyDigits = digitsOf(currency);

  // t("common.error", {message: "…"}) → the text with {name} filled in.
  const t = (key, vars = {}) =>
    (words[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));

  const fmtNumber = (value, options) => number(options).format(value);

  // Money is stored in minor units (cents; yen have none): 1234 → "$12.34". An amount
  // kept in another currency (the person moved) is shown in that one.
  const fmtMoney = (minor, code = currency) => number({ style: "currency", currency: code }).format(minor / 10 ** digitsOf(code));
  const toMinor = (amountText) => Math.round(parseFloat(String(amountText).replace(",", ".")) * 10 ** moneyDigits);

  // A quantity in a metric Intl unit ("milliliter", "kilometer" …) shown in the person's system.
  const displayUnit = (unit) => (config.units === "imperial" && imperial[unit] ? imperial[unit] : { unit, factor: 1 });
  const fmtQuantity = (value, unit, options = {}) => {
    const shown = displayUnit(unit);
    try {
      return number({ style: "unit", unit: shown.unit, maximumFractionDigits: 1, ...options }).format(value * shown.factor);
    } catch {
      return `${fmtNumber(value)} ${unit}`; // not an Intl unit: plain number and name
    }
  };

  // Dates travel as "YYYY-MM-DD" (local calendar day). date_format: "locale" (the
  // person's usual style), "long", or a pattern such as "DD/MM/YYYY" or "YYYY-MM-DD".
  const parseDay = (day) => {
    const [y, m, d] = day.split("-").map(Number);
    return new Date(y, m - 1, d);
  };
  const fmtDate = (day, style = config.date_format) => {
    if (!day) return "";
    const date = typeof day === "string" ? parseDay(day) : day;
    if (!style || style === "locale") return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(date);
    if (["short", "medium", "long", "full"].includes(style)) return new Intl.DateTimeFormat(locale, { dateStyle: style }).format(date);
    const parts = { YYYY: String(date.getFullYear()), MM: pad(date.getMonth() + 1), DD: pad(date.getDate()) };
    return style.replace(/YYYY|MM|DD/g, (part) => parts[part]);
  };
  const fmtWeekday = (day, width = "short") => new Intl.DateTimeFormat(locale, { weekday: width }).format(parseDay(day));
  const fmtTime = (hhmm) => {
    if (!hhmm) return "";
    const [h, m] = hhmm.split(":").map(Number);
    return new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit" }).format(new Date(2000, 0, 1, h, m));
  };
  const fmtMonth = (yyyymm) => {
    const [y, m] = yyyymm.split("-").map(Number);
    return new Intl.DateTimeFormat(locale, { year: "numeric", month: "long" }).format(new Date(y, m - 1, 1));
  };

  return { t, lang, locale, config, fmtNumber, fmtMoney, toMinor, moneyDigits, fmtQuantity, displayUnit, fmtDate, fmtWeekday, fmtTime, fmtMonth };
}

function pad(n) {
  return String(n).padStart(2, "0");
}

// Today as "YYYY-MM-DD" in the person's own time zone (toISOString would use UTC).
export function today(offsetDays = 0) {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

// The Monday of this week, as today() writes a day: the week the digest's "this week" counts
// (macaron's period_start), so the page and the digest add up the same days.
export function weekStart() {
  return today(-daysSinceMonday());
}

// The Sunday that ends this week: a week strip shows the days still ahead, empty.
export function weekEnd() {
  return today(6 - daysSinceMonday());
}

function daysSinceMonday() {
  return (new Date().getDay() + 6) % 7;
}
