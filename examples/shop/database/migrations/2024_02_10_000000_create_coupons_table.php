<?php

declare(strict_types=1);

use Shop\Support\Database\Schema\Blueprint;
use Shop\Support\Database\Schema\Schema;

/*
 * Percentage coupons that can be redeemed at checkout. A coupon without an
 * expiry date stays valid until it is deleted.
 */
return new class {
    public function up(): void
    {
        Schema::create('coupons', function (Blueprint $table) {
            $table->id();
            $table->string('code', 32)->unique();
            $table->integer('percent_off')->default(10);
            $table->integer('max_redemptions')->nullable();
            $table->timestamp('expires_at')->nullable();
            $table->timestamps();
        });
    }

    public function down(): void
    {
        Schema::dropIfExists('coupons');
    }
};
