/** A cart. */
class Cart extends Base with Priced {
  def add(i: Item): Unit = {
    log("added")
    i.touch()
  }
}

trait Priced {
  def price(): Int
}

object Registry {
  def helper(): Unit = {}
}
