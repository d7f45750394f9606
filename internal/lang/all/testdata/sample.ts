import { helper as h, other } from './util';
import Def from "./def";
import * as ns from '../ns';

/** Greeter greets. */
export class Greeter extends Base implements IGreet {
  private name: string;
  /** greet says hello */
  greet(p: Person): string {
    h(p);
    this.log("x");
    return new Message(p).text();
  }
  handler = () => { other(); };
}

export interface IGreet { greet(p: Person): string; }
export enum Color { Red }
export type Alias = string;
/** top level */
export function main() { ns.run(); Def(); }
const arrow = (x) => x + 1;
