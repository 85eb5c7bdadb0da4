import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { AgentSkills, Skill } from '@agent-card/nest';

const products = [
  { sku: 'MUG-BLUE', name: 'Blue mug', price: 12.5, stock: 40 },
  { sku: 'MUG-RED', name: 'Red mug', price: 12.5, stock: 0 },
  { sku: 'TEA-EARL', name: 'Earl Grey, 100 g', price: 8.9, stock: 120 },
];

@AgentSkills({ tags: ['catalog'], outputModes: ['application/json'] })
@Controller('products')
export class CatalogController {
  @Get()
  @Skill({
    description: 'Searches the product catalog by keyword and returns matching products with prices.',
    tags: ['search'],
    examples: ['Find mugs under 15 euros'],
  })
  searchProducts(@Query('q') q = '') {
    const needle = q.toLowerCase();
    return products.filter((p) => p.name.toLowerCase().includes(needle));
  }

  @Get(':sku')
  @Skill('product-details', { description: 'Returns the price, stock level and details of one product.' })
  getProduct(@Param('sku') sku: string) {
    const product = products.find((p) => p.sku === sku);
    if (!product) throw new NotFoundException(`No product ${sku}.`);
    return product;
  }
}
