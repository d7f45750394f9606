<?php

declare(strict_types=1);

namespace Shop\Http\Controller;

use DomainException;
use Shop\Cart\CartRepository;
use Shop\Exception\ShopException;
use Shop\Order\Order;
use Shop\Order\OrderRepository;
use Shop\Order\OrderService;
use Shop\Payment\InvoiceGateway;
use Shop\Support\Http\Request;
use Shop\Support\Http\Response;
use Shop\Support\Routing\Route;

final class OrderController
{
    public function __construct(
        private readonly OrderService $service,
        private readonly OrderRepository $orders,
        private readonly CartRepository $carts,
    ) {
    }

    #[Route('/checkout', methods: ['POST'], name: 'checkout')]
    public function checkout(Request $request): Response
    {
        $customerId = $request->customerId ?? null;
        if ($customerId === null) {
            return Response::json(['error' => 'Please sign in to check out.'], 401);
        }

        $cart = $this->carts->findByToken((string) $request->header(CartController::TOKEN_HEADER));
        if ($cart === null) {
            return Response::notFound('Cart not found.');
        }

        try {
            $order = $this->service->place(
                $cart,
                $customerId,
                (string) $request->input('payment', InvoiceGateway::CODE),
                $request->input('coupon'),
            );
        } catch (ShopException $e) {
            return Response::json(['error' => $e->getMessage()], $e->httpStatus());
        } catch (DomainException $e) {
            return Response::json(['error' => $e->getMessage()], 422);
        }

        return Response::json($order->toArray(), 201)->withHeader('Location', '/account/orders/' . $order->reference);
    }

    public function show(Request $request): Response
    {
        $order = $this->orders->findByReference((string) $request->reference);
        if ($order?->customerId !== $request->customerId) {
            $order = null;
        }

        return Response::json([
            'reference' => $request->reference,
            'status' => $order?->status()->label() ?? 'unknown',
            'order' => $order?->toArray(),
        ], $order === null ? 404 : 200);
    }

    public function history(Request $request): Response
    {
        $customerId = (int) $request->customerId;
        $totals = $this->orders->totalsForCustomer($customerId);

        return Response::json([
            'orders' => $this->orders->referencesForCustomer($customerId),
            'lifetime_cents' => array_sum(array_column($totals, 'total')),
        ]);
    }

    #[Route('/account/orders/{reference}/cancel', methods: ['POST'], name: 'orders.cancel')]
    public function cancel(Request $request): Response
    {
        try {
            /** @var Order $order */
            $order = $this->service->cancel((string) $request->reference, (int) $request->customerId);
        } catch (ShopException|DomainException $e) {
            $status = $e instanceof ShopException ? $e->httpStatus() : 409;

            return Response::json(['error' => $e->getMessage()], $status);
        }

        return Response::json($order->toArray());
    }
}
