package shop;

import java.util.List;

/** A cart. */
public class Cart extends Base implements Priced {
    private List<Item> items;

    public Cart() { super(); }

    /** Adds an item. */
    public void add(Item i) {
        items.add(i);
        log("added");
        Item copy = new Item(i);
    }
}

interface Priced {
    int price();
}

enum Color { RED }
