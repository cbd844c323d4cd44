import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';

// The stylesheets use no CSS nesting: a rule inside a rule is a lost closing brace (a bad
// merge), which silently swallows every rule after it.

const STYLES = join(__dirname, '../../src/renderer/src/styles');

describe('stylesheets', () => {
  for (const file of readdirSync(STYLES).filter((name) => name.endsWith('.css'))) {
    it(`${file} parses, and no rule sits inside another`, () => {
      const root = postcss.parse(readFileSync(join(STYLES, file), 'utf8'), { from: file });
      const nested: string[] = [];
      root.walkRules((rule) => {
        if (rule.parent?.type === 'rule') nested.push(`${rule.selector} (line ${rule.source?.start?.line}) inside ${(rule.parent as postcss.Rule).selector}`);
      });
      expect(nested).toEqual([]);
    });
  }
});
