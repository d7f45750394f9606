-- Orders get an explicit lifecycle status (see Shop\Order\OrderStatus).
ALTER TABLE orders
    ADD COLUMN status VARCHAR(20) NOT NULL DEFAULT 'pending' AFTER currency;

ALTER TABLE orders
    ADD COLUMN payment_reference VARCHAR(64) NULL AFTER status;

CREATE INDEX orders_status_index ON orders (status);
