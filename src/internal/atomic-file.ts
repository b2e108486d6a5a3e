/**
 * The one careful file write: a temporary file with a random name in the target's directory,
 * created exclusively (`O_EXCL`, never through a symlink: `O_NOFOLLOW`), written, fsynced, then
 * renamed over the target. A crash leaves the old file or the new one, never half of one;
 * nothing planted in the directory (a file or a symlink at the temporary name) is opened, and the
 * rename replaces a symlink at the target itself instead of writing through it. With
 * `refuseSymlink`, a target that is a symlink is refused outright (a user's `--report FILE`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Mode of a new file (the umask applies). @default 0o600 */
  mode?: number | undefined;
  /** Throw (code `ESYMLINK`) when the target is a symbolic link, instead of replacing the link. */
  refuseSymlink?: boolean | undefined;
  /** The temporary file's name in the target's directory (default: random); tests plant files at it. */
  tempName?: ((target: string) => string) | undefined;
}

/** Exclusive create, write only, never through a symlink (O_NOFOLLOW is 0 where the platform lacks it). */
const CREATE_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0);
/** Names tried before giving up when a name is taken (a random name collides only when planted). */
const CREATE_ATTEMPTS = 8;

function randomTempName(target: string): string {
  return `.${basename(target)}.${randomBytes(12).toString('hex')}.tmp`;
}

/** Whether `path` is a symbolic link (false when nothing is there). */
export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Write `text` to `path` atomically and privately (see the module comment). */
export function writeFileAtomic(path: string, text: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  if (options.refuseSymlink && isSymlink(path)) {
    throw Object.assign(new Error(`${path} is a symbolic link: refusing to write through it (remove it or name another file)`), { code: 'ESYMLINK', path });
  }
  const name = options.tempName ?? randomTempName;
  const dir = dirname(path);
  let fd: number | undefined;
  let tmp = '';
  for (let attempt = 0; fd === undefined; attempt++) {
    tmp = join(dir, name(path));
    try {
      fd = openSync(tmp, CREATE_FLAGS, options.mode ?? 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // EEXIST: a file is there; ELOOP: a symlink is (O_NOFOLLOW). Neither is ours: leave it, try another name.
      if ((code !== 'EEXIST' && code !== 'ELOOP') || attempt + 1 >= CREATE_ATTEMPTS) throw error;
    }
  }
  try {
    try {
      const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
