import { Cart } from '../src/cart';

export function testCartLabel(): boolean {
  const c = new Cart();
  c.add(250);
  return c.label() === '2.50';
}
