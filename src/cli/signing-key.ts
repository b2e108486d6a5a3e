/**
 * The TRON private key a command signs with (`send`'s sender, `ensure --activate`'s funding
 * wallet): `--key-file FILE` (or `-` for stdin) > TRX_RENT_PRIVATE_KEY > a hidden prompt at a
 * terminal. Never from the command line, never echoed.
 * @module
 */
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { ENV, isHexKey, readSecretFile } from './settings.js';

/** The key (64 hex) from --key-file, the environment or a hidden prompt asking for `label` ("Sender's private key"). */
export async function signingKey(ctx: Context, keyFile: string | undefined, label: string): Promise<string> {
  let value: string | undefined;
  let where: string;
  if (keyFile) {
    value = keyFile === '-' ? (await ctx.readStdin()).trim() : readSecretFile(keyFile, '--key-file', (m) => ctx.out.warn(m)).value;
    where = keyFile === '-' ? '--key-file - (stdin)' : `--key-file ${keyFile}`;
  } else if (ctx.env[ENV.privateKey]?.trim()) {
    value = ctx.env[ENV.privateKey]!.trim();
    where = ENV.privateKey;
  } else {
    if (!ctx.interactive) {
      throw new UsageError(
        'no signing key',
        `pass --key-file FILE (or - for stdin) or set ${ENV.privateKey}; keys are never taken from the command line`,
        'MISSING_ARGUMENT',
      );
    }
    const { password } = await ctx.ask.prompts();
    value = (
      await password({
        message: `${label} (64 hex, input hidden)?`,
        mask: '*',
        validate: (v: string) => (isHexKey(v.trim()) ? true : 'A private key is 64 hex characters'),
      })
    ).trim();
    where = 'the prompt';
  }
  if (!isHexKey(value)) throw new UsageError(`${where} does not hold a 64-hex private key`);
  return value;
}
