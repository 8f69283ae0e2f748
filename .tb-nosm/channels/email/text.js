import { clipText, displayText } from "../format.js";
const MAX_SUBJECT_CHARS = 200;
const MAX_SUBJECT_NAME_CHARS = 120;
function oneLine(value) {
  return displayText(value);
}
const clipChars = clipText;
function toSubject(value) {
  return clipChars(oneLine(value), MAX_SUBJECT_CHARS);
}
function countChanges(count) {
  return count === 1 ? "1 change" : `${count} changes`;
}
export {
  MAX_SUBJECT_CHARS,
  MAX_SUBJECT_NAME_CHARS,
  clipChars,
  countChanges,
  oneLine,
  toSubject
};
