function coalesceConsole(groups) {
  return groups.length;
}
export {
  coalesceConsole
};
