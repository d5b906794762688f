-- A small order-processing database: bulk inserts in transactions, an
-- index, joins and aggregates, updates and deletes, a savepoint rolled back.
CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER REFERENCES customer(id),
                    amount REAL, item TEXT, qty INTEGER);
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO customer SELECT i, 'customer-' || i,
    CASE i % 4 WHEN 0 THEN 'north' WHEN 1 THEN 'south' WHEN 2 THEN 'east' ELSE 'west' END FROM n;
COMMIT;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO orders SELECT i, 1 + (i * 7919) % 200, ((i * 104729) % 100000) / 100.0,
    'item-' || ((i * 31) % 97), 1 + i % 9 FROM n;
COMMIT;
CREATE INDEX orders_by_customer ON orders(customer);
SELECT region, count(*), printf('%.2f', sum(amount * qty)), printf('%.4f', avg(amount))
    FROM orders JOIN customer ON customer.id = orders.customer GROUP BY region ORDER BY region;
SELECT name, printf('%.2f', total) FROM (SELECT customer, sum(amount) AS total FROM orders
    GROUP BY customer) JOIN customer ON customer.id = customer ORDER BY total DESC LIMIT 5;
BEGIN;
UPDATE orders SET amount = amount * 1.1 WHERE item LIKE 'item-1%';
DELETE FROM orders WHERE qty = 3;
SAVEPOINT s;
DELETE FROM orders;
ROLLBACK TO s;
RELEASE s;
COMMIT;
SELECT count(*), printf('%.2f', sum(amount)) FROM orders;
SELECT item, count(*) FROM orders GROUP BY item HAVING count(*) > 20 ORDER BY 2 DESC, 1 LIMIT 5;
PRAGMA integrity_check;
