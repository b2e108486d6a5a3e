/**
 * Profiles on disk, through conf (loaded lazily: it pulls in ajv, ~100 ms, so a command whose
 * settings all come from flags or the environment never opens the store).
 *
 * File: `$TRX_RENT_CONFIG_DIR/config.json` when set, else the XDG config dir
 * (`~/.config/trx-rent/config.json` on Linux), mode 0600 in a 0700 directory.
 * Shape: `{ current_profile?: string, profiles: { [name]: ProfileSettings } }`.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './errors.js';

export interface ProfileSettings {
  base_url?: string;
  /** Saved by `login` only; never printed. */
  api_key?: string;
  default_address?: string;
  default_duration?: string;
}

/** Keys `config get/set` accept (api_key is set by `login`, read as "set"/"not set"). */
export const SETTABLE_KEYS = ['base_url', 'default_address', 'default_duration'] as const;
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

/** Open the store in `configDir` (the run's TRX_RENT_CONFIG_DIR), else the XDG config dir. */
export async function openConfig(configDir: string | undefined): Promise<ConfigStore> {
  const { default: Conf } = await import('conf');
  const cwd = configDir || undefined;
  if (cwd) mkdirSync(cwd, { recursive: true, mode: 0o700 });
  const conf = new Conf<Record<string, unknown>>({
    projectName: 'trx-rent',
    projectSuffix: '',
    ...(cwd ? { cwd } : {}),
    configName: 'config',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
  });
  try {
    chmodSync(dirname(conf.path), 0o700);
  } catch {
    // Not ours to change (or not there yet): the file itself is still 0600.
  }
  return new ConfigStore(conf);
}
