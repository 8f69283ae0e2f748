const EVENT_KINDS = ["opened", "increased", "decreased", "closed"];
export {
  EVENT_KINDS
};
