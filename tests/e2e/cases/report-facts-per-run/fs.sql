INSERT INTO fact_sets(id, session_id, host, cause, factor, level, read_at) VALUES
 (2, 1, 'local', 'apply', 'mtu', '1500', 1.0), (3, 1, 'local', 'apply', 'mtu', '9000', 2.0),
 (4, 1, 'local', 'manual', NULL, NULL, 3.0), (5, 1, 'local', 'apply', 'mtu', '9000', 4.0);
INSERT INTO fact_values(set_id, key, value) SELECT s.id, v.key, v.value FROM fact_values v, fact_sets s WHERE v.set_id = 1 AND s.id > 1 AND v.key <> 'nic_mtu';
INSERT INTO fact_values(set_id, key, value) VALUES (2, 'nic_mtu', '1500'), (3, 'nic_mtu', '9000'), (4, 'nic_mtu', '1500'), (5, 'nic_mtu', '9000'),
 (2, 'nic_pcie_link', '8.0 GT/s x4'), (3, 'nic_pcie_link', '8.0 GT/s x4'), (4, 'nic_pcie_link', '8.0 GT/s x1'), (5, 'nic_pcie_link', '8.0 GT/s x1');
UPDATE run_facts SET set_id = (SELECT CASE WHEN r.rep = 1 THEN 2 ELSE 4 END + CASE json_extract(r.cell, '$.mtu') WHEN '9000' THEN 1 ELSE 0 END FROM runs r WHERE r.id = run_facts.run_id);
