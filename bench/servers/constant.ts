// The framework's ceiling: Hono on @hono/node-server answering a constant farm, no database.
import { Hono } from 'hono';
import { listen } from './listen.js';

const farm = {
  b_id_farm: 'AAAAAAAAAAAAAAAAAAAAAA',
  b_name_farm: 'Bench Farm',
  b_businessid_farm: '12345678',
  b_address_farm: 'Dorpsstraat 1, Wageningen',
  b_postalcode_farm: '6708 PB',
};

const app = new Hono();
app.get('/api/farms/:id', (c) => c.json(farm));
listen(app);
