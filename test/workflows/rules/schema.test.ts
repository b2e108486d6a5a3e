/**
 * The rules file: the published JSON Schema (generated from the zod schemas) accepts the README's
 * example, zod accepts it too, and a bad file gets errors that name the rule and the field.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RulesFileError, explainRule, loadRules, parseRules, parseRulesYaml, rulesJsonSchema } from '../../../src/workflows/rules/index.js';

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
        {
          id: 'hot-wallet',
          trigger: { type: 'energy_below', address: 'TnotAnAddress', energy: 65000 },
          action: { type: 'ensure', energy: 200000 },
          limits: { max_spend_per_day: '1.2345678', min_interval: 'soon' },
        },
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
    expect(() => parseRules('rules:\n  - id: x\n', 'rules.txt')).toThrow(/looks like YAML: name the file \.yaml/);
  });
});

describe('duplicate keys in a JSON rules file', () => {
  const TARGET = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const caught = (text: string) => {
    try {
      parseRules(text, 'rules.json');
    } catch (e) {
      return e as RulesFileError;
    }
    throw new Error('accepted');
  };

  it('are refused with the key, its line and the rule: a 1 TRX limit never becomes 1000', () => {
    const text = [
      '{',
      '  "rules": [',
      '    { "id": "ok", "trigger": { "type": "schedule", "cron": "0 9 * * *" }, "action": { "type": "notify" } },',
      '    {',
      '      "id": "hot",',
      `      "trigger": { "type": "energy_below", "address": "${TARGET}", "energy": 65000 },`,
      '      "action": { "type": "ensure", "energy": 100000 },',
      '      "limits": {',
      '        "max_spend_per_day": "1",',
      '        "max_spend_per_day": "1000"',
      '      }',
      '    }',
      '  ]',
      '}',
    ].join('\n');
    // JSON.parse alone keeps the last value.
    expect((JSON.parse(text) as { rules: Array<{ limits?: { max_spend_per_day: string } }> }).rules[1]!.limits!.max_spend_per_day).toBe('1000');
    const error = caught(text);
    expect(error).toBeInstanceOf(RulesFileError);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.issues).toEqual([
      { rule: 'hot', field: 'limits.max_spend_per_day', line: 10, message: expect.stringContaining('duplicate key "max_spend_per_day" on line 10') },
    ]);
    expect(error.message).toContain('rule hot: limits.max_spend_per_day: duplicate key "max_spend_per_day" on line 10');
  });

  it('compare keys as JSON reads them, at any depth, and leave repeated keys in different objects alone', () => {
    // "\u0069d" is "id".
    const escaped = caught('{"rules":[{"id":"a","\\u0069d":"b","trigger":{"type":"schedule","cron":"0 9 * * *"},"action":{"type":"notify"}}]}');
    expect(escaped.issues).toEqual([expect.objectContaining({ rule: 'b', field: 'id', line: 1 })]);
    const top = caught('{"version":1,\n"rules":[],\n"version":1}');
    expect(top.issues).toEqual([expect.objectContaining({ rule: undefined, field: 'version', line: 3 })]);
    // The same key in sibling objects, and a key-like string value, are fine.
    const fine =
      '{"rules":[{"id":"a","trigger":{"type":"schedule","cron":"0 9 * * *"},"action":{"type":"notify","message":"id: type"}},{"id":"b","trigger":{"type":"schedule","cron":"0 9 * * *"},"action":{"type":"notify","message":"\\"type\\": x"}}]}';
    expect(parseRules(fine).rules.map((r) => r.id)).toEqual(['a', 'b']);
  });
});

const problems = (promise: Promise<unknown>) =>
  promise.then(
    () => [],
    (e: RulesFileError) => (e instanceof RulesFileError ? e.issues.map((i) => `${i.rule ?? 'file'} ${i.field}: ${i.message}`) : [String(e)]),
  );

describe('YAML rules files (the optional peer yaml)', () => {
  it("examples/rules/rules.yaml is the README's example, read through the same schemas; loadRules picks YAML by the name", async () => {
    const example = readmeExample() as Record<string, unknown>;
    const { $schema: _, ...document } = example;
    const yamlText = readFileSync(new URL('examples/rules/rules.yaml', ROOT), 'utf8');
    // YAML 1.2: `on:` is a key named "on", not true (YAML 1.1's trap), and the JSON Schema accepts the document.
    const parsed = await parseRulesYaml(yamlText, 'rules.yaml');
    expect(parsed).toEqual(parseRules(JSON.stringify(document)));
    expect(validateWith(document)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'rules-yaml-'));
    for (const name of ['rules.yaml', 'rules.yml', 'RULES.YML']) {
      writeFileSync(join(dir, name), yamlText);
      expect((await loadRules(join(dir, name))).rules.map((r) => r.id)).toEqual(['hot-wallet', 'cheap-stock', 'morning-top-up', 'renew-before-expiry']);
    }
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(document));
    expect(await loadRules(join(dir, 'rules.json'))).toEqual(parsed);
  });

  it('a bad YAML file gets errors naming the line, or the rule and field; duplicate keys and several documents are refused', async () => {
    expect(await problems(parseRulesYaml('rules:\n  - id: a\n    id: b\n', 'r.yaml'))).toEqual([
      expect.stringMatching(/^file \(file\): YAML line 3, column 5: Map keys must be unique/),
    ]);
    expect(await problems(parseRulesYaml('rules: [\n', 'r.yaml'))).toEqual([expect.stringMatching(/^file \(file\): YAML line \d+/)]);
    expect(await problems(parseRulesYaml('rules: []\n---\nrules: []\n', 'r.yaml'))).toEqual(['file (file): a rules file is one YAML document, found 2']);
    const bad =
      'rules:\n  - id: hot\n    trigger: { type: energy_below, address: TnotAnAddress, energy: 65000 }\n    action: { type: ensure, energy: 200000 }\n    limits: { min_interval: soon }\n';
    const found = await problems(parseRulesYaml(bad, 'r.yaml'));
    expect(found.map((f) => f.split(':')[0])).toEqual(expect.arrayContaining(['hot trigger.address', 'hot limits.min_interval']));
    // An alias bomb is cut off, not expanded.
    const bomb =
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\nrules: []\n';
    expect(await problems(parseRulesYaml(bomb, 'r.yaml'))).toEqual([expect.stringMatching(/^file \(file\): YAML: .*alias/i)]);
  });
});

function validateWith(document: unknown): boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv.compile(rulesJsonSchema())(document) as boolean;
}
