// A small seeded PRNG (mulberry32) so ids and booking codes are reproducible in tests.
export interface Random {
  /** A string of `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string;
}

export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    string(alphabet, length) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet.charAt(Math.floor(next() * alphabet.length));
      return out;
    },
  };
}

/** A prefixed id such as `bkg_k3j9x2m1q8`. */
export function newId(random: Random, prefix: string): string {
  return `${prefix}_${random.string(LOWER_ALNUM, 12)}`;
}
