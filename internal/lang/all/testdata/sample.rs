/// A cart.
pub struct Cart {
    items: Vec<Item>,
}

pub trait Priced {
    fn price(&self) -> u32;
}

impl Cart {
    /// Adds an item.
    pub fn add(&mut self, i: Item) {
        self.items.push(i);
        log("added");
        let c = Item::new();
    }
}

impl Priced for Cart {
    fn price(&self) -> u32 { 0 }
}

enum Color { Red }

fn helper() {}
