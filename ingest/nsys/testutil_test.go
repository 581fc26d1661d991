package nsys
