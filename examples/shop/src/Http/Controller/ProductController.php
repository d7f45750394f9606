<?php

declare(strict_types=1);

namespace Shop\Http\Controller;

use Shop\Catalog\Product;
use Shop\Catalog\ProductRepository;
use Shop\Exception\NotFoundException;
use Shop\Support\Http\Request;
use Shop\Support\Http\Response;

final class ProductController
{
    public function __construct(private readonly ProductRepository $products)
    {
    }

    public function index(Request $request): Response
    {
        $page = max(1, (int) $request->input('page', 1));
        $products = $this->products->listActive($page);

        return Response::json([
            'page' => $page,
            'data' => array_map($this->present(...), $products),
        ]);
    }

    public function show(Request $request): Response
    {
        try {
            $product = $this->products->getBySku((string) $request->sku);
        } catch (NotFoundException $e) {
            return Response::notFound($e->getMessage());
        }

        return Response::json($this->present($product));
    }

    /**
     * @return array<string, mixed>
     */
    private function present(Product $product): array
    {
        return [
            'sku' => $product->sku,
            'name' => $product->label(),
            'price' => $product->price->format(),
            'available' => $product->hasStock(1),
        ];
    }
}
