/**
 * `jose` is only needed to sign and verify, which most applications never do: it is loaded on
 * first use, so serving or validating a card does not pay for importing it at start-up.
 */
import type * as Jose from 'jose';

let loading: Promise<typeof Jose> | undefined;

/** The `jose` module, imported once, the first time a card is signed or verified. */
export function loadJose(): Promise<typeof Jose> {
  loading ??= import('jose');
  return loading;
}
