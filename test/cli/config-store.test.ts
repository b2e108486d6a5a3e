/** The profile store that replaced `conf`: same path and format, 0600, atomic, never clobbers a file it cannot read. */
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfigDir, openConfig } from '../../src/cli/config.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'trx-rent-config-'));

describe('config store', () => {
  it('reads a file written by conf (tab-indented) and keeps its other keys on write', async () => {
    const dir = fresh();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ current_profile: 'work', profiles: { work: { base_url: 'https://a.test' } }, other: 1 }, undefined, '\t'),
    );
    const store = await openConfig(dir);
    expect(store.currentProfile()).toBe('work');
    expect(store.getProfile('work')).toEqual({ base_url: 'https://a.test' });
    store.updateProfile('work', { default_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(saved).toEqual({
      current_profile: 'work',
      other: 1,
      profiles: { work: { base_url: 'https://a.test', default_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' } },
    });
    expect((await openConfig(dir)).getProfile('work')?.default_address).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });

  it('creates the file 0600 in a 0700 directory and leaves no temp file behind', async () => {
    const dir = join(fresh(), 'nested');
    const store = await openConfig(dir);
    store.setProfile('default', { api_key: `sk_live_${'1'.repeat(64)}` });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(store.removeProfile('default')).toBe(true);
    expect(store.profiles()).toEqual({});
  });

  it('a file that is not a JSON object is an error naming it, and is left as it was', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'config.json'), '{ "profiles": { broken');
    await expect(openConfig(dir)).rejects.toThrow(/config\.json is not a JSON object; fix or remove it/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{ "profiles": { broken');
  });

  it('the default directory is the one conf (env-paths) used on each platform', () => {
    expect(defaultConfigDir({}, 'linux')).toBe(join(homedir(), '.config', 'trx-rent'));
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/trx-rent');
    expect(defaultConfigDir({}, 'darwin')).toBe(join(homedir(), 'Library', 'Preferences', 'trx-rent'));
    expect(defaultConfigDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toBe(join('C:\\Users\\u\\AppData\\Roaming', 'trx-rent', 'Config'));
  });
});
