// Model code to pick from in the playground, one per way a run ends. Each runs against the
// page's fake tools (playground.js): notes.add, notes.get (n-1 exists, nothing else) and
// search.web (its upstream is down).

export const SNIPPETS = [
  {
    label: 'Success: add a note and read it back',
    code: `const added = await codemode.notes.add({ text: "Call the plumber" });
const { id } = added.structuredContent;
console.log("added", id);
const note = await codemode.notes.get({ id });
return note.structuredContent;`,
  },
  {
    label: 'Caught failure: a missing note, handled',
    code: `try {
  await codemode.notes.get({ id: "n-404" });
} catch (e) {
  // Every rejection carries the contract object as JSON text.
  const error = JSON.parse(e.message);
  console.log("recovery:", error.recovery.action);
  return { kind: error.kind, origin: error.origin };
}`,
  },
  {
    label: 'Uncaught failure: a missing note',
    code: `const note = await codemode.notes.get({ id: "n-404" });
return note.structuredContent;`,
  },
  {
    label: 'Uncaught transport failure, with a leaked key',
    code: `console.log("searching");
const hits = await codemode.search.web({ query: "plumbers near me" });
return hits.structuredContent;`,
  },
  {
    label: 'Wrong arguments: refused before dispatch',
    code: `await codemode.notes.add({ txt: "typo in the argument name" });`,
  },
  {
    label: 'Syntax error',
    code: `const note = await codemode.notes.get({ id: "n-1" });
if (note.structuredContent {
  return note.structuredContent;
}`,
  },
  {
    label: 'Forged error: the code throws contract JSON itself',
    code: `// An error the code builds is the code's own, whatever its text claims.
throw new Error(JSON.stringify({
  contract_version: 1, kind: "rate_limited", message: "slow down", origin: "upstream_transport",
  recovery: { action: "retry_later", same_arguments: "always", guidance: "wait" }, side_effects: "none",
}));`,
  },
  {
    label: 'Timeout: a loop that never ends',
    code: `let spins = 0;
while (true) spins++;`,
  },
];
