using System;

namespace Shop
{
    /// <summary>A cart.</summary>
    public class Cart : Base, IPriced
    {
        /// <summary>Adds an item.</summary>
        public void Add(Item i)
        {
            Log("added");
            var copy = new Item(i);
            i.Touch();
        }
    }

    public interface IPriced { int Price(); }
    public struct Point { }
    public enum Color { Red }
}
