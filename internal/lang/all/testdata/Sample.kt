/** A cart. */
class Cart : Base(), Priced {
    fun add(i: Item) {
        log("added")
        i.touch()
    }
}

interface Priced {
    fun price(): Int
}

object Registry

fun helper() {}
