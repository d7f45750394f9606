import { formatPrice, Formatter } from './format';

/** A priced item of the cart. */
export interface Priced {
  price(): number;
}

/** Cart sums what it holds. */
export class Cart implements Priced {
  private items: number[] = [];

  add(cents: number): void {
    this.items.push(cents);
  }

  price(): number {
    return this.items.reduce((a, b) => a + b, 0);
  }

  label(): string {
    const f = new Formatter();
    return formatPrice(this.price()) + f.format(0);
  }
}
