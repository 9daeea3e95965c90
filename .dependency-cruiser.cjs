/**
 * The module boundaries, checked on every `npm test`: contracts → shared → job kernel → ledger →
 * office → gateway → composition (app, server, main, ops, cli). A module reaches another only through its
 * door (`index.ts`) or, for settings alone, its settings door (`settings.ts`); nothing imports
 * upwards; no cycles.
 */
const inModule = (name) => `^src/${name}/`;
const door = (name) => `^src/${name}/(index|settings)\\.ts$`;

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment:
        "No import cycle, type-only imports included: a type that runs in a circle ties files that should stand in layers.",
      from: {},
      to: { circular: true },
    },
    {
      name: "contracts-stand-alone",
      severity: "error",
      comment: "Contracts are shapes only: they import nothing from the code.",
      from: { path: "^contracts/" },
      to: { path: "^(src|web|test)/" },
    },
    {
      name: "shared-below-modules",
      severity: "error",
      comment: "src/shared holds what every module uses; it knows none of them.",
      from: { path: inModule("shared") },
      to: { path: "^src/(ledger|office|gateway|ops|cli)/|^src/(app|server|main|config)\\.ts$" },
    },
    {
      name: "job-kernel-pure",
      severity: "error",
      comment: "The job kernel (src/job) sits below the modules: it knows only the contracts and src/shared.",
      from: { path: "^src/job/" },
      to: { path: "^src/(?!job/|shared/)|^(web|test)/" },
    },
    {
      name: "ledger-at-the-bottom",
      severity: "error",
      comment: "The ledger knows no other module.",
      from: { path: inModule("ledger") },
      to: { path: "^src/(office|gateway|ops|cli)/|^src/(app|server|main|config)\\.ts$" },
    },
    {
      name: "office-below-gateway",
      severity: "error",
      comment: "Office knows the ledger (through its door), never the gateway or the composition.",
      from: { path: inModule("office") },
      to: { path: "^src/(gateway|ops|cli)/|^src/(app|server|main|config)\\.ts$" },
    },
    {
      name: "gateway-below-composition",
      severity: "error",
      comment: "The gateway knows Office and the ledger through their doors, never the composition.",
      from: { path: inModule("gateway") },
      to: { path: "^src/(ops|cli)/|^src/(app|server|main|config)\\.ts$" },
    },
    {
      name: "through-the-ledger-door",
      severity: "error",
      comment: "Outside src/ledger, the ledger is reached through src/ledger/index.ts.",
      from: { path: "^src/", pathNot: inModule("ledger") },
      to: { path: inModule("ledger"), pathNot: door("ledger") },
    },
    {
      name: "through-the-office-door",
      severity: "error",
      comment: "Outside src/office, Office is reached through src/office/index.ts.",
      from: { path: "^src/", pathNot: inModule("office") },
      to: { path: inModule("office"), pathNot: door("office") },
    },
    {
      name: "through-the-gateway-door",
      severity: "error",
      comment: "Outside src/gateway, the gateway is reached through src/gateway/index.ts.",
      from: { path: "^src/", pathNot: inModule("gateway") },
      to: { path: inModule("gateway"), pathNot: door("gateway") },
    },
    {
      name: "web-talks-http",
      severity: "error",
      comment: "The web app talks to the server over HTTP only.",
      from: { path: "^web/" },
      to: { path: "^(src|test)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|contracts/json-schema)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".js", ".json"] },
  },
};
