/**
 * formatPrice renders cents as a price.
 */
export function formatPrice(cents) {
  return (cents / 100).toFixed(2);
}

export class Formatter {
  format(cents) {
    return formatPrice(cents);
  }
}
