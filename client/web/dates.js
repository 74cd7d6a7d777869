/** Moments as the page writes them to a person, in their own time zone and always in the
 * same words ("Tue 12 May 2026, 14:05"), whatever the browser's language: the page is in
 * English, and a test can write the same text from the same instant. */

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment `ms` (since 1970) in local time: `Tue 12 May 2026, 14:05`; without the year
 * where `year` is false (`Tue 12 May, 14:05`), for a place as narrow as a seat's clock. */
export function dateText(ms, { year = true } = {}) {
  const at = new Date(ms);
  const time = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  const day = `${DAYS[at.getDay()]} ${at.getDate()} ${MONTHS[at.getMonth()]}`;
  return `${day}${year ? ` ${at.getFullYear()}` : ""}, ${time}`;
}
