<?php

declare(strict_types=1);

namespace Shop\Http\Controller;

use Shop\Cart\Cart;
use Shop\Cart\CartRepository;
use Shop\Catalog\OutOfStockException;
use Shop\Catalog\ProductRepository;
use Shop\Exception\NotFoundException;
use Shop\Support\Http\Request;
use Shop\Support\Http\Response;
use Shop\Support\Routing\Route;

final class CartController
{
    public const TOKEN_HEADER = 'X-Cart-Token';

    public function __construct(
        private readonly CartRepository $carts,
        private readonly ProductRepository $products,
    ) {
    }

    #[Route('/cart', methods: ['GET'])]
    public function show(Request $request): Response
    {
        return $this->respond($this->currentCart($request));
    }

    #[Route('/cart/items', methods: ['POST'], name: 'cart.add')]
    public function add(Request $request): Response
    {
        $cart = $this->currentCart($request);

        try {
            $product = $this->products->getBySku((string) $request->input('sku'));
            $cart->add($product, max(1, (int) $request->input('quantity', 1)));
        } catch (OutOfStockException|NotFoundException $e) {
            return Response::json(['error' => $e->getMessage(), 'context' => $e->context()], $e->httpStatus());
        }

        $this->carts->save($cart);

        return $this->respond($cart, 201);
    }

    #[Route('/cart/items/{productId}', methods: ['DELETE'], name: 'cart.remove')]
    public function remove(Request $request): Response
    {
        $cart = $this->currentCart($request)->remove((int) $request->productId);
        $this->carts->save($cart);

        return $this->respond($cart);
    }

    private function currentCart(Request $request): Cart
    {
        $token = $request->header(self::TOKEN_HEADER);
        $cart = $token !== null ? $this->carts->findByToken($token) : null;

        if ($cart !== null && $request->customerId !== null && $cart->customerId() === null) {
            $cart->assignTo($request->customerId);
        }

        return $cart ?? Cart::fresh($request->customerId);
    }

    private function respond(Cart $cart, int $status = 200): Response
    {
        return Response::json($cart, $status)->withHeader(self::TOKEN_HEADER, $cart->token);
    }
}
