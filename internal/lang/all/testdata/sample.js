const fs = require('fs');

/** A shape. */
class Shape extends Base {
  constructor() { super(); }
  area() {
    return this.compute();
  }
  compute() { return 0; }
  static make() { return new Shape(); }
}

/** Draws a shape. */
function draw(s) {
  return helper(fs.readFileSync(s));
}
const helper = (x) => x;
