// The comparison peers, imported from here so their resolution starts in this folder
// (its node_modules), not in the package's.
export { lintSource } from '@secretlint/core';
export { creator as recommendPreset } from '@secretlint/secretlint-rule-preset-recommend';
