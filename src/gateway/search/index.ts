export { createSearchIndex } from "./search-index.js";
export { searchMessages } from "./search-messages.js";
