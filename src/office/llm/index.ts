export { selectPlanner } from "./select-planner.js";
