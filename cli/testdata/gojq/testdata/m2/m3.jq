def g: 43;
