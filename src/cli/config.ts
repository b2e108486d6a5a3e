/**
 * Profiles on disk: one small JSON file, read once per run and written atomically (a temp file
 * in the same directory, then rename), mode 0600 in a 0700 directory. The path and format are
 * the ones the `conf` package used, so profiles written by earlier versions load
 * (DECISIONS.md).
 *
 * File: `$TRX_RENT_CONFIG_DIR/config.json` when set, else the platform's config dir
 * (`$XDG_CONFIG_HOME/trx-rent` or `~/.config/trx-rent` on Linux, `~/Library/Preferences/trx-rent`
 * on macOS, `%APPDATA%\trx-rent\Config` on Windows, as conf's env-paths chose).
 * Shape: `{ current_profile?: string, profiles: { [name]: ProfileSettings } }`.
 * @module
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './errors.js';

export interface ProfileSettings {
  base_url?: string;
  /** Saved by `login` only; never printed. */
  api_key?: string;
  default_address?: string;
  default_duration?: string;
  /** The TRON full node `ensure`, `send` and `mcp` read (see settings.ts). */
  tron_node?: string;
}

/** Keys `config get/set` accept (api_key is set by `login`, read as "set"/"not set"). */
export const SETTABLE_KEYS = ['base_url', 'default_address', 'default_duration', 'tron_node'] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];
export const READABLE_KEYS = [...SETTABLE_KEYS, 'api_key'] as const;

export const DEFAULT_PROFILE = 'default';

interface ConfLike {
  readonly path: string;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export class ConfigStore {
  readonly #conf: ConfLike;
  constructor(conf: ConfLike) {
    this.#conf = conf;
  }

  get path(): string {
    return this.#conf.path;
  }

  currentProfile(): string | undefined {
    const name = this.#conf.get('current_profile');
    return typeof name === 'string' && name ? name : undefined;
  }

  setCurrentProfile(name: string): void {
    this.#conf.set('current_profile', name);
  }

  profiles(): Record<string, ProfileSettings> {
    const all = this.#conf.get('profiles');
    return all && typeof all === 'object' ? { ...(all as Record<string, ProfileSettings>) } : {};
  }

  getProfile(name: string): ProfileSettings | undefined {
    return this.profiles()[name];
  }

  setProfile(name: string, settings: ProfileSettings): void {
    const all = this.profiles();
    const clean = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined && v !== ''));
    all[name] = clean;
    this.#conf.set('profiles', all);
  }

  updateProfile(name: string, patch: Partial<Record<keyof ProfileSettings, string | undefined>>): ProfileSettings {
    const next: ProfileSettings = { ...this.getProfile(name) };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k as keyof ProfileSettings];
      else next[k as keyof ProfileSettings] = v;
    }
    this.setProfile(name, next);
    return next;
  }

  removeProfile(name: string): boolean {
    const all = this.profiles();
    if (!(name in all)) return false;
    delete all[name];
    this.#conf.set('profiles', all);
    if (this.currentProfile() === name) this.#conf.delete('current_profile');
    return true;
  }
}

export function validateProfileName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)) {
    throw new UsageError(`profile name must be letters, digits, - or _ (up to 64), got ${JSON.stringify(name)}`);
  }
  return name;
}

/** The platform's config directory for trx-rent (what conf's env-paths gave, so old files are found). */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'trx-rent');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'trx-rent', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'trx-rent');
}

/** A JSON object in one file: read on open, written whole (temp file + rename) on each change. */
class JsonFile implements ConfLike {
  readonly path: string;
  #data: Record<string, unknown>;

  constructor(path: string) {
    this.path = path;
    this.#data = JsonFile.#read(path);
  }

  static #read(path: string): Record<string, unknown> {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    if (text.trim() === '') return {};
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      // Never overwrite a file we cannot read: it may hold keys the user wants back.
      throw new UsageError(`the config file ${path} is not a JSON object; fix or remove it`);
    }
    return data as Record<string, unknown>;
  }

  get(key: string): unknown {
    return Object.hasOwn(this.#data, key) ? this.#data[key] : undefined;
  }

  set(key: string, value: unknown): void {
    this.#data = { ...this.#data, [key]: value };
    this.#write();
  }

  delete(key: string): void {
    const { [key]: _gone, ...rest } = this.#data;
    this.#data = rest;
    this.#write();
  }

  #write(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      // 0600 from the first byte: the file holds API keys. Tab-indented, as conf wrote it.
      writeFileSync(temp, `${JSON.stringify(this.#data, undefined, '\t')}\n`, { mode: 0o600 });
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}

/** Open the store in `configDir` (the run's TRX_RENT_CONFIG_DIR), else the platform's config dir. */
export async function openConfig(configDir: string | undefined): Promise<ConfigStore> {
  const dir = configDir || defaultConfigDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // Not ours to change: the file itself is still 0600.
  }
  return new ConfigStore(new JsonFile(join(dir, 'config.json')));
}
