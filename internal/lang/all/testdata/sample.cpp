namespace shop {

// A cart.
class Cart : public Base {
public:
    void add(int i) { log(i); }
    int price() const;
};

int Cart::price() const {
    return helper(1);
}

}  // namespace shop

int main() {
    auto c = new shop::Cart();
    c->add(1);
}
