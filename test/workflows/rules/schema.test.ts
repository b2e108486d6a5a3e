/**
 * The rules file: the published JSON Schema (generated from the zod schemas) accepts the README's
 * example, zod accepts it too, and a bad file gets errors that name the rule and the field.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { RulesFileError, explainRule, parseRules, rulesJsonSchema } from '../../../src/workflows/rules/index.js';

const ROOT = new URL('../../../', import.meta.url);

function readmeExample(): unknown {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
  const section = readme.slice(readme.indexOf('## Standing rules'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  return JSON.parse(block![1]!);
}

describe('the rules file', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validate = ajv.compile(rulesJsonSchema());

  it("the JSON Schema validates the README's example, and so do the zod schemas", () => {
    const example = readmeExample();
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const parsed = parseRules(JSON.stringify(example));
    expect(parsed.rules.map((r) => r.id)).toEqual(['hot-wallet', 'cheap-stock', 'morning-top-up', 'renew-before-expiry']);
    expect(parsed.rules[0]!.limits.max_spend_per_day).toBe(150_000_000);
    expect(parsed.rules[0]!.action).toMatchObject({ type: 'ensure', duration: 7200 });
    expect(explainRule(parsed.rules[2]!)).toContain('0 9 * * 1-5');
    // The example file in examples/ is the same document.
    expect(JSON.parse(readFileSync(new URL('examples/rules/rules.json', ROOT), 'utf8'))).toEqual(example);
  });

  it('the shipped trx-rent/rules.schema.json is the one the zod schemas generate', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { exports: Record<string, unknown> };
    expect(pkg.exports['./rules.schema.json']).toBe('./dist/rules.schema.json');
    expect(JSON.parse(readFileSync(new URL('dist/rules.schema.json', ROOT), 'utf8'))).toEqual(rulesJsonSchema());
  });

  it('the JSON Schema refuses what zod refuses (wrong trigger type, unknown field)', () => {
    const bad = { rules: [{ id: 'x', trigger: { type: 'energy_above', address: 'T' }, action: { type: 'notify' } }] };
    expect(validate(bad)).toBe(false);
    expect(validate({ rules: [{ id: 'x', trigger: { type: 'schedule', cron: '* * * * *' }, action: { type: 'notify' }, extra: 1 }] })).toBe(false);
  });

  it('a bad file gets one error per problem, naming rule and field', () => {
    const file = {
      rules: [
        { id: 'ok', trigger: { type: 'schedule', cron: '0 9 * * *' }, action: { type: 'notify' } },
        { id: 'hot-wallet', trigger: { type: 'energy_below', address: 'TnotAnAddress', energy: 65000 }, action: { type: 'ensure', energy: 200000 }, limits: { max_spend_per_day: '1.2345678', min_interval: 'soon' } },
        { id: 'cron', trigger: { type: 'schedule', cron: '61 * * * *', timezone: 'Mars/Olympus' }, action: { type: 'buy', amount: 65000 } },
        { trigger: { type: 'price_below', price_sun: 50 }, action: { type: 'notify' } },
      ],
    };
    const error = (() => {
      try {
        parseRules(JSON.stringify(file), 'rules.json');
      } catch (e) {
        return e;
      }
    })() as RulesFileError;
    expect(error).toBeInstanceOf(RulesFileError);
    const found = error.issues.map((i) => `${i.rule} ${i.field}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'hot-wallet trigger.address',
        'hot-wallet limits.max_spend_per_day',
        'hot-wallet limits.min_interval',
        'cron trigger.cron',
        'cron trigger.timezone',
        '#4 id',
      ]),
    );
    expect(error.message).toContain('rule hot-wallet: trigger.address');
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(() => parseRules('rules:\n  - id: x\n', 'rules.yaml')).toThrow(/looks like YAML/);
  });
});
