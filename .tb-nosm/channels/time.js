const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
function zonedParts(date, timezone) {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: timezone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23"
  });
  return Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
}
function formatInstant(iso, timezone, options = {}) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = zonedParts(date, timezone);
  const month = MONTHS[Number(parts.month) - 1] ?? "?";
  const day = `${Number(parts.day)} ${month}${options.year ? ` ${parts.year}` : ""}`;
  return `${day} ${parts.hour}:${parts.minute}`;
}
function formatPeriod(period, options = {}) {
  const from = formatInstant(period.from, period.timezone, options);
  const to = formatInstant(period.to, period.timezone, options);
  return `${from} \u2013 ${to} (${period.timezone})`;
}
function zonedDay(iso, timezone) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return void 0;
  const parts = zonedParts(date, timezone);
  return `${parts.year}-${parts.month?.padStart(2, "0")}-${parts.day?.padStart(2, "0")}`;
}
export {
  formatInstant,
  formatPeriod,
  zonedDay
};
