function page(frame, body, status) {
  return { kind: "page", frame, body, ...status === void 0 ? {} : { status } };
}
function redirect(location) {
  return { kind: "redirect", location };
}
export {
  page,
  redirect
};
