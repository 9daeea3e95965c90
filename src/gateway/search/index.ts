export { createSearchIndex, type SearchIndex } from "./search-index.js";
export { searchMessages } from "./search-messages.js";
